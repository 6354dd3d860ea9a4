import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../core/index.js';
import { databaseLocationFromUrl } from './database-location.js';

function refusalOf(url: string): ConfigurationError {
  try {
    databaseLocationFromUrl(url);
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error(`${url} was accepted.`);
}

describe('databaseLocationFromUrl', () => {
  it('reads memory, file: URLs and plain paths', () => {
    expect(databaseLocationFromUrl(':memory:')).toEqual({ kind: 'memory' });
    expect(databaseLocationFromUrl('file::memory:')).toEqual({ kind: 'memory' });
    expect(databaseLocationFromUrl('file:/var/forge/forge.db')).toEqual({ kind: 'file', path: '/var/forge/forge.db' });
    expect(databaseLocationFromUrl('file:///var/forge/forge.db')).toEqual({ kind: 'file', path: '/var/forge/forge.db' });
    expect(databaseLocationFromUrl('file://localhost/var/forge/forge.db')).toEqual({ kind: 'file', path: '/var/forge/forge.db' });
    expect(databaseLocationFromUrl('file:///var/my%20forge/a%23b.db')).toEqual({ kind: 'file', path: '/var/my forge/a#b.db' });
    expect(databaseLocationFromUrl('/var/forge/forge.db')).toEqual({ kind: 'file', path: '/var/forge/forge.db' });
    expect(databaseLocationFromUrl('  /var/forge/forge.db  ')).toEqual({ kind: 'file', path: '/var/forge/forge.db' });
  });

  it('resolves relative paths and relative file: URLs against the current folder', () => {
    expect(databaseLocationFromUrl('.forge/forge.db')).toEqual({ kind: 'file', path: resolve('.forge/forge.db') });
    expect(databaseLocationFromUrl('file:.forge/forge.db')).toEqual({ kind: 'file', path: resolve('.forge/forge.db') });
    expect(databaseLocationFromUrl('forge.db')).toEqual({ kind: 'file', path: resolve('forge.db') });
  });

  it('reads postgres:// and postgresql:// URLs, in any case of the scheme, as a PostgreSQL server', () => {
    expect(databaseLocationFromUrl(' postgres://forge:s3cret@db:5432/forge ')).toEqual({ kind: 'postgres', url: 'postgres://forge:s3cret@db:5432/forge' });
    expect(databaseLocationFromUrl('POSTGRESQL://forge:s3cret@db/forge?sslmode=require')).toEqual({ kind: 'postgres', url: 'postgresql://forge:s3cret@db/forge?sslmode=require' });
  });

  it('refuses other schemes and malformed file: URLs, listing the accepted forms', () => {
    for (const url of ['libsql://db.turso.io', 'https://example.com/forge.db', 'mysql://forge:s3cret@db/forge', 'file:/a.db?mode=ro', 'file://server/share/a.db', '   ']) {
      const error = refusalOf(url);
      expect(error.message).toMatch(/Accepted forms: a file path .*file:\/absolute\/path\.db.*:memory:/);
      expect(error.message).not.toContain('s3cret');
    }
    expect(refusalOf('libsql://db.turso.io').message).toMatch(/Unsupported database URL scheme "libsql:"/);
  });

  it('refuses a bare word, which is neither a URL nor a path, without repeating it', () => {
    for (const value of ['garbage', 's3cret-token', 'not a url']) {
      const error = refusalOf(value);
      expect(error.message).toMatch(/neither a database URL nor the path of a database file/);
      expect(error.message).not.toContain(value);
      expect(error.hint).toMatch(/\.\/forge\.db/);
    }
  });
});
