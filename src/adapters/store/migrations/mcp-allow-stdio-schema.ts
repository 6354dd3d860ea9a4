import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 11: whether the person who added a stdio MCP server allowed it to start its local program
 * (`forge mcp add --allow-stdio` stores 1), so the local CLI starts it again on later commands without
 * FORGE_MCP_ALLOW_STDIO. Servers (`forge serve`, `forge mcp serve`) never start one, whatever it says.
 */
export function mcpAllowStdioSchema(_dialect: SqlDialect): Migration {
  return {
    version: 11,
    name: 'mcp-allow-stdio',
    up: ['ALTER TABLE mcp_servers ADD COLUMN allow_stdio INTEGER NOT NULL DEFAULT 0'],
  };
}
