import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { databaseLocationFromUrl } from '../adapters/store/database-location.js';
import { databaseUrlFromEnv } from './database-url-from-env.js';

describe('databaseUrlFromEnv', () => {
  it('uses FORGE_DATABASE_URL when it is set', () => {
    expect(databaseUrlFromEnv({ FORGE_DATABASE_URL: 'postgres://db/forge' }, '/home/forge')).toBe('postgres://db/forge');
    expect(databaseUrlFromEnv({ FORGE_DATABASE_URL: ' file:/data/forge.db ' }, '/home/forge')).toBe('file:/data/forge.db');
  });

  it('falls back to forge.db in the Forge home when the variable is unset or blank', () => {
    expect(databaseUrlFromEnv({}, '/home/forge')).toBe('file:///home/forge/forge.db');
    expect(databaseUrlFromEnv({ FORGE_DATABASE_URL: '  ' }, '/home/forge')).toBe('file:///home/forge/forge.db');
    expect(databaseUrlFromEnv({}, '.forge')).toBe(pathToFileURL(resolve('.forge', 'forge.db')).href);
  });

  it('gives a URL that names the same file even when the home folder has URL characters in it', () => {
    const url = databaseUrlFromEnv({}, '/tmp/my forge #1?');

    expect(databaseLocationFromUrl(url)).toEqual({ kind: 'file', path: '/tmp/my forge #1?/forge.db' });
  });
});
