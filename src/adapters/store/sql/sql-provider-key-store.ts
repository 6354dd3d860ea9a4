import type { CredentialProvider, ProviderKeyRecord, ProviderKeyStore } from '../../../core/index.js';
import { readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const columns = 'user_id, provider, sealed_key, last4, created_at, updated_at';

/** Provider keys in `provider_keys`, one row per account and provider. */
export class SqlProviderKeyStore implements ProviderKeyStore {
  constructor(private readonly sql: SqlAccess) {}

  async put(key: Pick<ProviderKeyRecord, 'userId' | 'provider' | 'sealedKey' | 'last4'>): Promise<ProviderKeyRecord> {
    const now = new Date().toISOString();
    await this.sql.write([
      {
        statement: {
          sql: `INSERT INTO provider_keys (${columns}) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, provider) DO UPDATE SET sealed_key = excluded.sealed_key, last4 = excluded.last4, updated_at = excluded.updated_at`,
          args: [key.userId, key.provider, key.sealedKey, key.last4, now, now],
        },
      },
    ]);
    return (await this.get(key.userId, key.provider))!;
  }

  async get(userId: string, provider: CredentialProvider): Promise<ProviderKeyRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${columns} FROM provider_keys WHERE user_id = ? AND provider = ?`, args: [userId, provider] });
    const row = result.rows[0];
    return row === undefined ? undefined : fromRow(row);
  }

  async list(userId?: string): Promise<ProviderKeyRecord[]> {
    const result = await this.sql.read(
      userId === undefined ? `SELECT ${columns} FROM provider_keys ORDER BY user_id, provider` : { sql: `SELECT ${columns} FROM provider_keys WHERE user_id = ? ORDER BY provider`, args: [userId] },
    );
    return result.rows.map(fromRow);
  }

  async remove(userId: string, provider: CredentialProvider): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'DELETE FROM provider_keys WHERE user_id = ? AND provider = ?', args: [userId, provider] } }]);
    return result!.rowsAffected === 1;
  }

  async reseal(keys: readonly Pick<ProviderKeyRecord, 'userId' | 'provider' | 'sealedKey'>[]): Promise<void> {
    if (keys.length === 0) return;
    await this.sql.write(keys.map((key) => ({ statement: { sql: 'UPDATE provider_keys SET sealed_key = ? WHERE user_id = ? AND provider = ?', args: [key.sealedKey, key.userId, key.provider] } })));
  }
}

function fromRow(row: SqlRow): ProviderKeyRecord {
  return {
    userId: readText(row, 'user_id'),
    provider: readText(row, 'provider') as CredentialProvider,
    sealedKey: readText(row, 'sealed_key'),
    last4: readText(row, 'last4'),
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}
