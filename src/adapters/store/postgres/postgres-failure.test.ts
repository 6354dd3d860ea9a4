import { describe, expect, it } from 'vitest';
import { NotFoundError, SystemError } from '../../../core/index.js';
import { postgresConnection } from './postgres-connection.js';
import { postgresFailure } from './postgres-failure.js';

const connection = postgresConnection('postgres://forge:p%40ss-w0rd@db.internal:6543/forge');

describe('postgresFailure', () => {
  it('masks the password wherever the driver or the server repeats it, and keeps the error otherwise', () => {
    const error = Object.assign(new Error('syntax error at or near "p@ss-w0rd" in p@ss-w0rd'), { code: '42601' });

    const mapped = postgresFailure(error, connection);

    expect(mapped).toBe(error);
    expect((mapped as Error).message).toBe('syntax error at or near "***" in ***');
    expect(mapped).toMatchObject({ code: '42601' });
  });

  it('names host:port and the fix for a server it cannot reach or use, never the password', () => {
    const cases = [
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6543'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' }),
      Object.assign(new Error('password authentication failed for user "forge"'), { code: '28P01' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
    ];

    for (const error of cases) {
      const mapped = postgresFailure(error, connection);
      expect(mapped, error.message).toBeInstanceOf(SystemError);
      expect(mapped).toMatchObject({ target: 'db.internal:6543', message: expect.stringContaining('db.internal:6543') });
      expect(JSON.stringify((mapped as SystemError).toJSON())).not.toContain('p@ss-w0rd');
    }
  });

  it("leaves Forge's own errors and constraint violations to the table stores", () => {
    const notFound = new NotFoundError('run', 'run-1');
    const unique = Object.assign(new Error('duplicate key value violates unique constraint "runs_id_key"'), { code: '23505' });

    expect(postgresFailure(notFound, connection)).toBe(notFound);
    expect(postgresFailure(unique, connection)).toBe(unique);
  });
});
