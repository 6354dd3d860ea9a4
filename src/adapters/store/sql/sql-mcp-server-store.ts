import { NotFoundError, type McpServerRecord, type McpServerStore, type McpServerUpdate, type McpTransportKind, type NewMcpServer } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { fromJsonColumn, toJsonColumn } from '../json-column.js';
import { constraintViolation } from './constraint-violation.js';
import { onlyRow, readNullableText, readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const serverColumns = 'name, transport, url, sealed_headers, enabled_tools, trust_annotations, allow_stdio, created_at, updated_at';

// A fixed list, so only these names ever reach the SQL text, whatever keys an update object carries.
const updatableColumns = {
  url: 'url',
  transport: 'transport',
  sealedHeaders: 'sealed_headers',
  enabledTools: 'enabled_tools',
} as const satisfies Record<keyof McpServerUpdate, string>;

/** Remote MCP servers in `mcp_servers`, addressed by their unique name. */
export class SqlMcpServerStore implements McpServerStore {
  constructor(private readonly sql: SqlAccess) {}

  async create(server: NewMcpServer): Promise<McpServerRecord> {
    const now = new Date().toISOString();
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO mcp_servers (name, transport, url, sealed_headers, enabled_tools, trust_annotations, allow_stdio, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING ${serverColumns}`,
          args: [server.name, server.transport, server.url, server.sealedHeaders, enabledToolsColumn(server.enabledTools), server.trustAnnotations ? 1 : 0, server.allowStdio === true ? 1 : 0, now, now],
        },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('MCP server', { name: server.name }) : error),
      },
    ]);
    return serverFromRow(onlyRow(result!.rows));
  }

  async get(name: string): Promise<McpServerRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${serverColumns} FROM mcp_servers WHERE name = ?`, args: [name] });
    const row = result.rows[0];
    return row === undefined ? undefined : serverFromRow(row);
  }

  async list(): Promise<McpServerRecord[]> {
    const result = await this.sql.read(`SELECT ${serverColumns} FROM mcp_servers ORDER BY ordinal`);
    return result.rows.map(serverFromRow);
  }

  async update(name: string, update: McpServerUpdate): Promise<McpServerRecord> {
    const assignments: string[] = [];
    const values: (string | null)[] = [];
    for (const [field, column] of Object.entries(updatableColumns) as [keyof McpServerUpdate, string][]) {
      if (update[field] === undefined) continue;
      assignments.push(`${column} = ?`);
      values.push(field === 'enabledTools' ? enabledToolsColumn(update.enabledTools ?? null) : (update[field] as string | null));
    }
    const [result] = await this.sql.write([
      {
        statement: {
          sql: `UPDATE mcp_servers SET ${[...assignments, 'updated_at = ?'].join(', ')} WHERE name = ? RETURNING ${serverColumns}`,
          args: [...values, new Date().toISOString(), name],
        },
        ifUnchanged: () => new NotFoundError('MCP server', name, 'List the configured servers with `forge mcp list`.', 'name'),
      },
    ]);
    return serverFromRow(onlyRow(result!.rows));
  }

  async delete(name: string): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'DELETE FROM mcp_servers WHERE name = ?', args: [name] } }]);
    return result!.rowsAffected > 0;
  }
}

function enabledToolsColumn(tools: readonly string[] | null): string | null {
  return tools === null ? null : toJsonColumn(tools);
}

/** The enabled tools a row lists, or why they cannot be read: one damaged row must not keep the others from being listed. */
function enabledToolsOf(row: SqlRow): { enabledTools: string[] | null; damage?: string } {
  let enabledTools: unknown;
  try {
    enabledTools = fromJsonColumn(readNullableText(row, 'enabled_tools'));
  } catch {
    return { enabledTools: null, damage: 'its enabled_tools column is not JSON' };
  }
  if (enabledTools === undefined || enabledTools === null) return { enabledTools: null };
  if (!Array.isArray(enabledTools) || !enabledTools.every((name) => typeof name === 'string')) return { enabledTools: null, damage: 'its enabled_tools column is not a list of tool names' };
  return { enabledTools };
}

function serverFromRow(row: SqlRow): McpServerRecord {
  const { enabledTools, damage } = enabledToolsOf(row);
  return {
    name: readText(row, 'name'),
    transport: readText(row, 'transport') as McpTransportKind,
    url: readText(row, 'url'),
    sealedHeaders: readNullableText(row, 'sealed_headers'),
    enabledTools,
    trustAnnotations: Number(row['trust_annotations']) === 1,
    allowStdio: Number(row['allow_stdio']) === 1,
    ...(damage === undefined ? {} : { damage }),
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}
