import { API_SCOPES, type AccountStore, type ApiKeyRecord, type ApiScope, type SessionRecord, type UserRecord, type UserRole } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { constraintViolation } from './constraint-violation.js';
import { readNullableText, readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const userColumns = 'id, email, password_hash, role, created_at, disabled_at';
const sessionColumns = 'id, user_id, refresh_hash, created_at, expires_at, revoked_at, refreshed_at';
const keyColumns = 'id, user_id, name, key_hash, scopes, created_at, expires_at, revoked_at, last_used_at';

/** Accounts in `users`, `sessions` and `api_keys`. Emails are stored lower-cased; a session or key changes state with one conditional UPDATE. */
export class SqlAccountStore implements AccountStore {
  constructor(private readonly sql: SqlAccess) {}

  async createUser(user: Pick<UserRecord, 'id' | 'email' | 'passwordHash' | 'role'>): Promise<UserRecord> {
    const record: UserRecord = { ...user, email: user.email.toLowerCase(), createdAt: new Date().toISOString(), disabledAt: null };
    await this.sql.write([
      {
        statement: { sql: 'INSERT INTO users (id, email, password_hash, role, created_at) VALUES (?, ?, ?, ?, ?)', args: [record.id, record.email, record.passwordHash, record.role, record.createdAt] },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('user', { email: record.email }) : error),
      },
    ]);
    return record;
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    return this.oneUser('id = ?', id);
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    return this.oneUser('email = ?', email.toLowerCase());
  }

  async listUsers(): Promise<UserRecord[]> {
    const result = await this.sql.read(`SELECT ${userColumns} FROM users ORDER BY created_at, id`);
    return result.rows.map(userFromRow);
  }

  async firstAdmin(): Promise<UserRecord | undefined> {
    return this.oneUser("role = 'admin' ORDER BY created_at, id LIMIT 1");
  }

  async deleteUser(id: string): Promise<boolean> {
    const results = await this.sql.write(
      ['sessions', 'api_keys', 'users'].map((table) => ({ statement: { sql: `DELETE FROM ${table} WHERE ${table === 'users' ? 'id' : 'user_id'} = ?`, args: [id] } })),
    );
    return results.at(-1)!.rowsAffected === 1;
  }

  async createSession(session: Pick<SessionRecord, 'id' | 'userId' | 'refreshHash' | 'expiresAt'>): Promise<SessionRecord> {
    const record: SessionRecord = { ...session, createdAt: new Date().toISOString(), revokedAt: null, refreshedAt: null };
    await this.sql.write([
      {
        statement: {
          sql: 'INSERT INTO sessions (id, user_id, refresh_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
          args: [record.id, record.userId, record.refreshHash, record.createdAt, record.expiresAt],
        },
      },
    ]);
    return record;
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${sessionColumns} FROM sessions WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : sessionFromRow(row);
  }

  async rotateSession(id: string, expectedHash: string, nextHash: string): Promise<boolean> {
    const now = new Date().toISOString();
    const [result] = await this.sql.write([
      {
        statement: {
          sql: 'UPDATE sessions SET refresh_hash = ?, refreshed_at = ? WHERE id = ? AND refresh_hash = ? AND revoked_at IS NULL AND expires_at > ?',
          args: [nextHash, now, id, expectedHash, now],
        },
      },
    ]);
    return result!.rowsAffected === 1;
  }

  async revokeSession(id: string): Promise<boolean> {
    const [result] = await this.sql.write([{ statement: { sql: 'UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', args: [new Date().toISOString(), id] } }]);
    return result!.rowsAffected === 1;
  }

  async createApiKey(key: Pick<ApiKeyRecord, 'id' | 'userId' | 'name' | 'keyHash' | 'scopes' | 'expiresAt'>): Promise<ApiKeyRecord> {
    const record: ApiKeyRecord = { ...key, createdAt: new Date().toISOString(), revokedAt: null, lastUsedAt: null };
    await this.sql.write([
      {
        statement: {
          sql: 'INSERT INTO api_keys (id, user_id, name, key_hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          args: [record.id, record.userId, record.name, record.keyHash, JSON.stringify(record.scopes), record.createdAt, record.expiresAt],
        },
      },
    ]);
    return record;
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${keyColumns} FROM api_keys WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : keyFromRow(row);
  }

  async listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
    const result = await this.sql.read({ sql: `SELECT ${keyColumns} FROM api_keys WHERE user_id = ? ORDER BY created_at, id`, args: [userId] });
    return result.rows.map(keyFromRow);
  }

  async revokeApiKey(id: string, userId: string): Promise<boolean> {
    const [result] = await this.sql.write([
      { statement: { sql: 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL', args: [new Date().toISOString(), id, userId] } },
    ]);
    return result!.rowsAffected === 1;
  }

  async touchApiKey(id: string): Promise<void> {
    await this.sql.write([{ statement: { sql: 'UPDATE api_keys SET last_used_at = ? WHERE id = ?', args: [new Date().toISOString(), id] } }]);
  }

  private async oneUser(condition: string, ...args: string[]): Promise<UserRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${userColumns} FROM users WHERE ${condition}`, args });
    const row = result.rows[0];
    return row === undefined ? undefined : userFromRow(row);
  }
}

function userFromRow(row: SqlRow): UserRecord {
  return {
    id: readText(row, 'id'),
    email: readText(row, 'email'),
    passwordHash: readText(row, 'password_hash'),
    role: readText(row, 'role') as UserRole,
    createdAt: readText(row, 'created_at'),
    disabledAt: readNullableText(row, 'disabled_at'),
  };
}

function sessionFromRow(row: SqlRow): SessionRecord {
  return {
    id: readText(row, 'id'),
    userId: readText(row, 'user_id'),
    refreshHash: readText(row, 'refresh_hash'),
    createdAt: readText(row, 'created_at'),
    expiresAt: readText(row, 'expires_at'),
    revokedAt: readNullableText(row, 'revoked_at'),
    refreshedAt: readNullableText(row, 'refreshed_at'),
  };
}

function keyFromRow(row: SqlRow): ApiKeyRecord {
  const stored: unknown = JSON.parse(readText(row, 'scopes'));
  // Only scopes this Forge knows are honoured: a scope dropped from the list grants nothing.
  const scopes = Array.isArray(stored) ? stored.filter((scope): scope is ApiScope => (API_SCOPES as readonly unknown[]).includes(scope)) : [];
  return {
    id: readText(row, 'id'),
    userId: readText(row, 'user_id'),
    name: readText(row, 'name'),
    keyHash: readText(row, 'key_hash'),
    scopes,
    createdAt: readText(row, 'created_at'),
    expiresAt: readNullableText(row, 'expires_at'),
    revokedAt: readNullableText(row, 'revoked_at'),
    lastUsedAt: readNullableText(row, 'last_used_at'),
  };
}
