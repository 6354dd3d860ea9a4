import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 14: model provider keys per account, sealed at rest (AES-256-GCM under the installation's
 * secret key, with its key id): one row per account and provider, with the key's last 4 characters,
 * the only part ever shown again.
 */
export function providerKeysSchema(_dialect: SqlDialect): Migration {
  return {
    version: 14,
    name: 'provider-keys',
    up: [
      `CREATE TABLE provider_keys (
        user_id TEXT NOT NULL,
        provider TEXT NOT NULL,
        sealed_key TEXT NOT NULL,
        last4 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (user_id, provider)
      )`,
    ],
  };
}
