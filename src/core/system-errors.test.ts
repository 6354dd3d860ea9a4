import { describe, expect, it } from 'vitest';
import { ForgeError, NotFoundError } from './errors.js';
import { describeError, systemErrorOf, systemErrorWithin, type SystemError } from './system-errors.js';

function errno(code: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(`${code}: raw system text`), { code, ...fields });
}

describe('system errors said the way a person can act on them', () => {
  it('names the file, port or host and the fix, keeping the system code only as a field', () => {
    const cases: Array<[Error, RegExp, RegExp]> = [
      [errno('ENOENT', { path: '/data/tool.js', syscall: 'open' }), /\/data\/tool\.js does not exist/, /Check the path/],
      [errno('EEXIST', { path: '/data/out.json' }), /\/data\/out\.json already exists/, /another name/],
      [errno('EACCES', { path: '/data/forge.db', syscall: 'open' }), /Permission denied: \/data\/forge\.db/, /chmod u\+rw/],
      [errno('EADDRINUSE', { address: '127.0.0.1', port: 8765 }), /127\.0\.0\.1:8765 is already in use/, /--port 0/],
      [errno('ECONNREFUSED', { address: '127.0.0.1', port: 11434 }), /Nothing is listening at 127\.0\.0\.1:11434/, /Start the service/],
      [errno('ENOTFOUND', { hostname: 'serch.example' }), /host name serch\.example cannot be resolved/, /spelling/],
      [Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }), /read-only/, /FORGE_DATABASE_URL/],
      [new Error('ConnectionFailed("Unable to open connection to local database /x/forge.db: 14")'), /cannot open the database/, /folder exists/],
    ];
    for (const [error, message, hint] of cases) {
      const info = describeError(error);
      expect(info.name).toBe('SystemError');
      expect(info.message).toMatch(message);
      expect(info.hint).toMatch(hint);
      expect(info.message).not.toMatch(/ENOENT|EEXIST|EACCES|EADDRINUSE|ECONNREFUSED|ENOTFOUND|SQLITE_|ConnectionFailed|raw system text/);
    }
    expect((systemErrorOf(errno('ENOENT', { path: '/a' })) as SystemError).code).toBe('ENOENT');
  });

  it('lets the boundary name the file a SQLite error never names', () => {
    const error = systemErrorOf(new Error('file is not a database'), '/home/me/.forge/forge.db');
    expect(error?.message).toBe('/home/me/.forge/forge.db is not a readable Forge database (it is damaged, or not a database at all).');
    expect(error?.target).toBe('/home/me/.forge/forge.db');
  });

  it('reads "fetch failed" and vendor wrappers through to the real reason', () => {
    const refused = errno('ECONNREFUSED', { address: '127.0.0.1', port: 9 });
    const fetchFailed = new TypeError('fetch failed', { cause: refused });
    expect(describeError(fetchFailed).message).toBe('Nothing is listening at 127.0.0.1:9 (connection refused).');
    const wrapped = Object.assign(new Error('gave up'), { lastError: new Error('Cannot connect to API: connect ECONNREFUSED', { cause: refused }) });
    expect(systemErrorWithin(wrapped)?.code).toBe('ECONNREFUSED');
    expect(describeError(new TypeError('fetch failed')).message).toBe('fetch failed');
  });

  it('leaves Forge errors and unknown errors as they are', () => {
    const own = new NotFoundError('run', 'abc');
    expect(describeError(own)).toEqual(own.toJSON());
    const coded = Object.assign(new ForgeError({ name: 'McpError', message: 'mine' }), { code: 'ENOENT' });
    expect(systemErrorOf(coded)).toBeUndefined();
    expect(describeError(new RangeError('odd'))).toEqual({ name: 'RangeError', message: 'odd' });
  });
});
