import { ConfigurationError, describeError, ForgeError } from '../../core/index.js';
import { maskUrlCredentials } from '../../security/redaction/index.js';
import { databaseLocationFromUrl } from './database-location.js';
import { openStore } from './open-store.js';
import { canLoadTables, hasStoreTables, type StoreTables, type TableLoading, type TableShape } from './sql/index.js';

/** Rows read from the source per page, by default. */
const DEFAULT_BATCH_SIZE = 500;

/** One table copied: its name and how many rows went over. */
export interface TableCopied {
  readonly table: string;
  readonly rows: number;
}

/** What `copyStore` did. */
export interface StoreCopy {
  /** The source and the target as given, with any credentials in them masked. */
  readonly from: string;
  readonly to: string;
  /** Every table, in the order copied (owners first). */
  readonly tables: readonly TableCopied[];
  /** All rows copied. */
  readonly rows: number;
  readonly durationMs: number;
}

/**
 * A copy that was refused before anything was written (the target already holds records, or its
 * tables are not the source's), or that failed at a table (`table`; the tables before it were
 * copied). Says which tables, and what to do.
 */
export class StoreCopyError extends ForgeError {
  /** The table whose copy failed; undefined for a refusal, when nothing was written. */
  readonly table: string | undefined;

  constructor(options: { message: string; hint: string; table?: string; cause?: unknown }) {
    super({ name: 'StoreCopyError', message: options.message, hint: options.hint, cause: options.cause });
    this.table = options.table;
  }
}

/**
 * Copies every record of the store at `from` into the store at `to`, a PostgreSQL URL. Both are opened
 * (and so migrated) first; the target must be empty, or the copy is refused with the tables that are
 * not (`StoreCopyError`), and nothing is written. Tables go over in dependency order, owners
 * before what references them, each read from the source in pages of `batchSize` rows in key order
 * and loaded in one transaction of the target with every id and ordinal kept (see `TableLoading`).
 * `onTable` hears of each table once it is committed. A failure in the middle leaves the tables copied
 * before it in the target (the error names the table); empty the target and copy again. Stop every
 * Forge process writing to the source first: a record written during the copy may be missed.
 */
export async function copyStore(options: { from: string; to: string; batchSize?: number; onTable?: (copied: TableCopied) => void }): Promise<StoreCopy> {
  const started = performance.now();
  if (databaseLocationFromUrl(options.to).kind !== 'postgres') {
    throw new ConfigurationError('--to', 'names no PostgreSQL server: the copy goes into a postgres:// or postgresql:// URL.', 'Pass --to postgres://user:password@host:5432/database.');
  }
  if (options.to.trim() === options.from.trim()) throw new ConfigurationError('--to', 'is the store being copied: a store cannot be copied onto itself.', 'Pass the URL of another, empty database.');
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const source = await openStore({ url: options.from });
  try {
    const target = await openStore({ url: options.to });
    try {
      if (!hasStoreTables(source) || !hasStoreTables(target) || !canLoadTables(target)) throw new Error('Both stores must be SQL stores to copy one into the other.');
      const tables = await matchingTables(source, target);
      const copied: TableCopied[] = [];
      for (const { from, to } of tables) {
        const rows = await target.loadTable(to, source.readRows(from, batchSize)).catch((error: unknown) => {
          throw new StoreCopyError({
            message: `Copying the table ${from.name} failed, after ${copied.length} table(s) were copied: ${describeError(error).message}`,
            hint: 'Fix the cause, empty the target (its copied tables stay), and copy again.',
            table: from.name,
            cause: error,
          });
        });
        copied.push({ table: from.name, rows });
        options.onTable?.({ table: from.name, rows });
      }
      return { from: maskUrlCredentials(options.from), to: maskUrlCredentials(options.to), tables: copied, rows: copied.reduce((sum, table) => sum + table.rows, 0), durationMs: performance.now() - started };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** Each source table with the target's table of the same name and columns, refusing a target that lacks one or already holds rows. */
async function matchingTables(source: StoreTables, target: StoreTables & TableLoading): Promise<{ from: TableShape; to: TableShape }[]> {
  const targetTables = new Map((await target.listTables()).map((table) => [table.name, table]));
  const pairs = (await source.listTables()).map((from) => ({ from, to: targetTables.get(from.name) }));
  const different = pairs.filter(({ from, to }) => to === undefined || [...from.columns].sort().join() !== [...to.columns].sort().join());
  if (different.length > 0) {
    throw new StoreCopyError({
      message: `The target's tables are not the source's: ${different.map(({ from }) => from.name).join(', ')} ${different.length === 1 ? 'differs' : 'differ'} (a target migrated by another Forge version?). Nothing was copied.`,
      hint: 'Copy into a database (or schema) this Forge version migrated: run the same Forge on both.',
    });
  }
  const matched = pairs.map(({ from, to }) => ({ from, to: to! }));
  const counts = await Promise.all(matched.map(async ({ to }) => ({ table: to.name, rows: await target.countRows(to) })));
  const filled = counts.filter((count) => count.rows > 0);
  if (filled.length > 0) {
    throw new StoreCopyError({
      message: `The target already holds records (${filled.map((count) => `${count.table}: ${count.rows}`).join(', ')}); a copy goes only into an empty store, so nothing was copied and nothing in it changed.`,
      hint: 'Copy into a new database (createdb forge) or a new schema (CREATE SCHEMA forge_copy, then add ?options=-c%20search_path%3Dforge_copy to the URL), or empty the target first.',
    });
  }
  return matched;
}
