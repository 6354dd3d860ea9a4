import type { ToolboxRecord, ToolboxRecordStatus, ToolboxStore } from '../../../core/index.js';
import { fromJudgedJsonColumn, toJsonColumn } from '../json-column.js';
import { readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const entryColumns = 'name, status, entry, updated_at, uses, owner';

/** The toolbox in `toolbox_entries`, addressed by each tool's unique name. */
export class SqlToolboxStore implements ToolboxStore {
  constructor(private readonly sql: SqlAccess) {}

  async put(record: ToolboxRecord): Promise<boolean> {
    // Replacing in place keeps the row's ordinal, so a changed tool keeps its place in the list, and
    // leaves `uses` alone, so a count another process added between our read and this write stays. A row
    // of another owner is left as it is: the upsert's condition makes it write nothing.
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO toolbox_entries (name, status, entry, updated_at, uses, owner) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET status = excluded.status, entry = excluded.entry, updated_at = excluded.updated_at
                WHERE toolbox_entries.owner IS NOT DISTINCT FROM excluded.owner`,
          args: [record.name, record.status, toJsonColumn(record.entry), record.updatedAt, record.uses, record.owner],
        },
      },
    ]);
    return result!.rowsAffected > 0;
  }

  async setOwner(name: string, owner: string | null): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'UPDATE toolbox_entries SET owner = ? WHERE name = ?', args: [owner, name] } }]);
    return result!.rowsAffected > 0;
  }

  async get(name: string): Promise<ToolboxRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${entryColumns} FROM toolbox_entries WHERE name = ?`, args: [name] });
    const row = result.rows[0];
    return row === undefined ? undefined : recordFromRow(row);
  }

  async list(): Promise<ToolboxRecord[]> {
    const result = await this.sql.read(`SELECT ${entryColumns} FROM toolbox_entries ORDER BY ordinal`);
    return result.rows.map(recordFromRow);
  }

  async addUse(name: string): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'UPDATE toolbox_entries SET uses = uses + 1 WHERE name = ?', args: [name] } }]);
    return result!.rowsAffected > 0;
  }

  async delete(name: string): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'DELETE FROM toolbox_entries WHERE name = ?', args: [name] } }]);
    return result!.rowsAffected > 0;
  }

  async clear(): Promise<void> {
    await this.sql.write([{ statement: { sql: 'DELETE FROM toolbox_entries' } }]);
  }
}

function recordFromRow(row: SqlRow): ToolboxRecord {
  return {
    name: readText(row, 'name'),
    status: readText(row, 'status') as ToolboxRecordStatus,
    entry: fromJudgedJsonColumn(readText(row, 'entry')),
    updatedAt: readText(row, 'updated_at'),
    uses: readNumber(row, 'uses'),
    owner: readNullableText(row, 'owner'),
  };
}
