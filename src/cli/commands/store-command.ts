import type { Command } from 'commander';
import { EXIT, parsePositiveInteger, reportError } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';

export function registerStoreCommand(program: Command): void {
  const store = program.command('store').description('The store: where Forge keeps runs, conversations, skills, the toolbox and accounts.');

  store
    .command('copy')
    .description('Copy every record of the current store (FORGE_DATABASE_URL, or forge.db in the home) into an empty PostgreSQL store.')
    .requiredOption('--to <url>', 'the PostgreSQL store to copy into: postgres://user:password@host:5432/database (migrated first; must be empty)')
    .option('--batch-size <rows>', 'rows read from the source at a time', parsePositiveInteger('--batch-size'), 500)
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Tables go over owners first, each in one transaction, with every id kept. A target that already holds
records is refused, naming them, and nothing is written. Stop Forge processes writing to the source
first. Afterwards, point FORGE_DATABASE_URL at the target.

Examples:
  $ forge store copy --to postgres://forge:secret@db.internal:5432/forge
  $ forge store copy --to "postgres://forge@127.0.0.1/forge?options=-c%20search_path%3Dforge" --json`,
    )
    .action(async (options: { to: string; batchSize: number; json?: boolean }) => {
      const json = options.json === true;
      try {
        const [{ loadConfig }, { copyStore }] = await Promise.all([import('../../compose/index.js'), import('../../adapters/store/index.js')]);
        const { databaseUrl } = loadConfig(process.env, process.cwd());
        const copy = await copyStore({ from: databaseUrl, to: options.to, batchSize: options.batchSize, ...(json ? {} : { onTable: ({ table, rows }) => printOut(`${table.padEnd(18)} ${rows} row${rows === 1 ? '' : 's'}\n`) }) });
        if (json) printJson({ from: copy.from, to: copy.to, tables: copy.tables, rows: copy.rows, duration_ms: copy.durationMs });
        else printOut(`Copied ${copy.rows} row${copy.rows === 1 ? '' : 's'} in ${copy.tables.length} tables from ${copy.from} to ${copy.to} in ${(copy.durationMs / 1000).toFixed(1)} s.\nSet FORGE_DATABASE_URL to the target to use it.\n`);
        process.exitCode = EXIT.ok;
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
