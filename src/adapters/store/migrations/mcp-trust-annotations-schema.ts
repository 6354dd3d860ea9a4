import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 5: whether Forge believes a server's tool annotations. 0 (the default, and every server added
 * before) treats each of its tools as one that may write, whatever `readOnlyHint` says: annotations are
 * a third party's claims. `forge mcp add --trust-annotations` stores 1.
 */
export function mcpTrustAnnotationsSchema(_dialect: SqlDialect): Migration {
  return {
    version: 5,
    name: 'mcp-trust-annotations',
    up: ['ALTER TABLE mcp_servers ADD COLUMN trust_annotations INTEGER NOT NULL DEFAULT 0'],
  };
}
