import type { NewPolicyVersion, PolicyStore, PolicyVersion } from '../../../core/index.js';
import { prefixCondition } from './prefix-condition.js';
import { readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow, SqlValue } from './sql-access.js';

const columns = 'scope, version, document, author, message, created_at';

/**
 * Policy documents in `policy_versions`, one row per scope and version. A save computes the next
 * version inside its own INSERT … SELECT, so two saves of one scope at once get two numbers (the
 * primary key refuses a duplicate in any case).
 */
export class SqlPolicyStore implements PolicyStore {
  constructor(private readonly sql: SqlAccess) {}

  async save(version: NewPolicyVersion, options: { expectedVersion?: number } = {}): Promise<PolicyVersion | undefined> {
    const expected = options.expectedVersion === undefined ? '' : ' HAVING COALESCE(MAX(version), 0) = ?';
    const args: SqlValue[] = [version.scope, JSON.stringify(version.document), version.author, version.message, new Date().toISOString(), version.scope];
    if (options.expectedVersion !== undefined) args.push(options.expectedVersion);
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO policy_versions (${columns})
                SELECT ?, COALESCE(MAX(version), 0) + 1, ?, ?, ?, ? FROM policy_versions WHERE scope = ?${expected}
                RETURNING ${columns}`,
          args,
        },
      },
    ]);
    const row = result!.rows[0];
    return row === undefined ? undefined : fromRow(row);
  }

  async latest(scopes: readonly string[]): Promise<PolicyVersion[]> {
    if (scopes.length === 0) return [];
    const marks = scopes.map(() => '?').join(', ');
    const result = await this.sql.read({
      sql: `SELECT ${columns} FROM policy_versions AS p WHERE scope IN (${marks})
            AND version = (SELECT MAX(version) FROM policy_versions WHERE scope = p.scope)`,
      args: [...scopes],
    });
    return result.rows.map(fromRow);
  }

  async get(scope: string, version: number): Promise<PolicyVersion | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${columns} FROM policy_versions WHERE scope = ? AND version = ?`, args: [scope, version] });
    const row = result.rows[0];
    return row === undefined ? undefined : fromRow(row);
  }

  async versions(scope: string): Promise<PolicyVersion[]> {
    const result = await this.sql.read({ sql: `SELECT ${columns} FROM policy_versions WHERE scope = ? ORDER BY version DESC`, args: [scope] });
    return result.rows.map(fromRow);
  }

  async scopes(prefix?: string): Promise<string[]> {
    const match = prefix === undefined ? undefined : prefixCondition('scope', prefix);
    const result = await this.sql.read(
      match === undefined ? 'SELECT DISTINCT scope FROM policy_versions ORDER BY scope' : { sql: `SELECT DISTINCT scope FROM policy_versions WHERE ${match.sql} ORDER BY scope`, args: match.args },
    );
    return result.rows.map((row) => readText(row, 'scope'));
  }
}

function fromRow(row: SqlRow): PolicyVersion {
  return {
    scope: readText(row, 'scope'),
    version: readNumber(row, 'version'),
    document: JSON.parse(readText(row, 'document')) as unknown,
    author: readText(row, 'author'),
    message: readText(row, 'message'),
    createdAt: readText(row, 'created_at'),
  };
}
