import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 12: accounts. `users` (argon2id password hashes, a role), `sessions` (one per sign-in: the
 * sha256 of its current refresh token, rotated on every refresh, revoked at logout), `api_keys` (the
 * sha256 of each service key, its scopes as a JSON array, an expiry, a revocation). The records people
 * make (`runs`, `conversations`, `skills`, `mcp_servers`) get the account that owns them: `user_id`,
 * NULL for records stored without one (before accounts, or by the CLI), which belong to the first admin.
 */
export function accountsSchema(_dialect: SqlDialect): Migration {
  return {
    version: 12,
    name: 'accounts',
    up: [
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'user')),
        created_at TEXT NOT NULL,
        disabled_at TEXT
      )`,
      `CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        refresh_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT,
        refreshed_at TEXT
      )`,
      'CREATE INDEX sessions_by_user ON sessions (user_id)',
      `CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        last_used_at TEXT
      )`,
      'CREATE INDEX api_keys_by_user ON api_keys (user_id)',
      'ALTER TABLE runs ADD COLUMN user_id TEXT',
      'ALTER TABLE conversations ADD COLUMN user_id TEXT',
      'ALTER TABLE skills ADD COLUMN user_id TEXT',
      'ALTER TABLE mcp_servers ADD COLUMN user_id TEXT',
      'CREATE INDEX runs_by_user ON runs (user_id, ordinal)',
    ],
  };
}
