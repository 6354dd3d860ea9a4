import type { AgentRecord, AgentStore, AgentVersionRecord, NewAgentVersion } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { constraintViolation } from './constraint-violation.js';
import { readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const agentColumns = 'slug, name, active_version, latest_version, user_id, created_at, updated_at';
const versionColumns = 'slug, version, definition, changed_fields, message, author, created_at';

/**
 * Agents in `agents`, their versions in `agent_versions`. A new version is written together with the
 * agent row's move, guarded by the latest version it was made from, so two edits at once never both
 * become version n+1 (the second finds the agent moved on and gets undefined).
 */
export class SqlAgentStore implements AgentStore {
  constructor(private readonly sql: SqlAccess) {}

  async create(slug: string, first: NewAgentVersion, owner: { userId: string | null }): Promise<{ agent: AgentRecord; version: AgentVersionRecord }> {
    const now = new Date().toISOString();
    await this.sql.write([
      {
        statement: { sql: `INSERT INTO agents (${agentColumns}) VALUES (?, ?, 1, 1, ?, ?, ?)`, args: [slug, first.name, owner.userId, now, now] },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('agent', { slug }) : error),
      },
      { statement: { sql: `INSERT INTO agent_versions (${versionColumns}) VALUES (?, 1, ?, ?, ?, ?, ?)`, args: [slug, JSON.stringify(first.definition), JSON.stringify(first.changedFields), first.message, first.author, now] } },
    ]);
    return { agent: (await this.get(slug))!, version: (await this.version(slug, 1))! };
  }

  async addVersion(slug: string, next: NewAgentVersion, expectedLatest: number): Promise<{ agent: AgentRecord; version: AgentVersionRecord } | undefined> {
    const now = new Date().toISOString();
    const version = expectedLatest + 1;
    const moved = await this.sql
      .write([
        {
          statement: {
            sql: 'UPDATE agents SET name = ?, active_version = ?, latest_version = ?, updated_at = ? WHERE slug = ? AND latest_version = ?',
            args: [next.name, version, version, now, slug, expectedLatest],
          },
          ifUnchanged: () => new StaleAgentVersion(),
        },
        { statement: { sql: `INSERT INTO agent_versions (${versionColumns}) VALUES (?, ?, ?, ?, ?, ?, ?)`, args: [slug, version, JSON.stringify(next.definition), JSON.stringify(next.changedFields), next.message, next.author, now] } },
      ])
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof StaleAgentVersion) return false;
          throw error;
        },
      );
    if (!moved) return undefined;
    return { agent: (await this.get(slug))!, version: (await this.version(slug, version))! };
  }

  async setActive(slug: string, version: number): Promise<AgentRecord | undefined> {
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `UPDATE agents SET active_version = ?, updated_at = ? WHERE slug = ? AND EXISTS (SELECT 1 FROM agent_versions WHERE slug = ? AND version = ?) RETURNING ${agentColumns}`,
          args: [version, new Date().toISOString(), slug, slug, version],
        },
      },
    ]);
    const row = result!.rows[0];
    return row === undefined ? undefined : agentFromRow(row);
  }

  async get(slug: string): Promise<AgentRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${agentColumns} FROM agents WHERE slug = ?`, args: [slug] });
    const row = result.rows[0];
    return row === undefined ? undefined : agentFromRow(row);
  }

  async list(): Promise<AgentRecord[]> {
    return (await this.sql.read(`SELECT ${agentColumns} FROM agents ORDER BY slug`)).rows.map(agentFromRow);
  }

  async version(slug: string, version: number): Promise<AgentVersionRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${versionColumns} FROM agent_versions WHERE slug = ? AND version = ?`, args: [slug, version] });
    const row = result.rows[0];
    return row === undefined ? undefined : versionFromRow(row);
  }

  async versions(slug: string): Promise<AgentVersionRecord[]> {
    return (await this.sql.read({ sql: `SELECT ${versionColumns} FROM agent_versions WHERE slug = ? ORDER BY version DESC`, args: [slug] })).rows.map(versionFromRow);
  }

  async remove(slug: string): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'DELETE FROM agents WHERE slug = ?', args: [slug] } }]);
    return result!.rowsAffected === 1;
  }
}

/** The agent moved past the version an edit was made from; never leaves this file. */
class StaleAgentVersion extends Error {}

function agentFromRow(row: SqlRow): AgentRecord {
  return {
    slug: readText(row, 'slug'),
    name: readText(row, 'name'),
    activeVersion: readNumber(row, 'active_version'),
    latestVersion: readNumber(row, 'latest_version'),
    userId: readNullableText(row, 'user_id'),
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}

function versionFromRow(row: SqlRow): AgentVersionRecord {
  return {
    slug: readText(row, 'slug'),
    version: readNumber(row, 'version'),
    definition: JSON.parse(readText(row, 'definition')) as unknown,
    changedFields: JSON.parse(readText(row, 'changed_fields')) as string[],
    message: readText(row, 'message'),
    author: readText(row, 'author'),
    createdAt: readText(row, 'created_at'),
  };
}
