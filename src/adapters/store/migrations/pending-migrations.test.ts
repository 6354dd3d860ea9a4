import { describe, expect, it } from 'vitest';
import type { Migration } from './migration.js';
import { pendingMigrations } from './pending-migrations.js';
import { SchemaVersionError } from './schema-version-error.js';

const migrations: Migration[] = [
  { version: 1, name: 'one', up: ['SELECT 1'] },
  { version: 2, name: 'two', up: ['SELECT 2'] },
  { version: 3, name: 'three', up: ['SELECT 3'] },
];

describe('pendingMigrations', () => {
  it('returns every migration not yet applied, in order', () => {
    expect(pendingMigrations(migrations, []).map((migration) => migration.version)).toEqual([1, 2, 3]);
    expect(pendingMigrations(migrations, [1]).map((migration) => migration.version)).toEqual([2, 3]);
    expect(pendingMigrations(migrations, [2, 1, 3])).toEqual([]);
  });

  it('refuses a database that applied versions it does not know', () => {
    let refusal: unknown;
    try {
      pendingMigrations(migrations, [1, 2, 3, 5, 4]);
    } catch (error) {
      refusal = error;
    }

    expect(refusal).toBeInstanceOf(SchemaVersionError);
    expect(refusal).toMatchObject({ name: 'SchemaVersionError', unknownVersions: [4, 5], latestKnownVersion: 3 });
    expect((refusal as Error).message).toContain('schema version 5');
  });
});
