import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 3: remote MCP servers the user added, so connections survive a restart. `sealed_headers`
 * holds the secret box's ciphertext of the header map, never the headers themselves; `enabled_tools`
 * is a JSON array of remote tool names, NULL meaning every tool the server offers.
 */
export function mcpServersSchema(dialect: SqlDialect): Migration {
  return {
    version: 3,
    name: 'mcp-servers-schema',
    up: [
      `CREATE TABLE mcp_servers (
        ordinal ${dialect.generatedKeyColumn},
        name TEXT NOT NULL UNIQUE,
        transport TEXT NOT NULL CHECK (transport IN ('streamable-http', 'sse', 'stdio')),
        url TEXT NOT NULL,
        sealed_headers TEXT,
        enabled_tools TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    ],
  };
}
