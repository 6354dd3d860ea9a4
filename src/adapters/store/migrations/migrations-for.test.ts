import { describe, expect, it } from 'vitest';
import { migrationsFor } from './migrations-for.js';

describe('migrationsFor', () => {
  const migrations = migrationsFor({ generatedKeyColumn: 'GENERATED_KEY_COLUMN', jsonInteger: (column, key) => `JSON_INTEGER(${column}, ${key})`, skipLockedRows: ' SKIP_LOCKED' });

  it('numbers migrations from 1, strictly increasing, with kebab-case names', () => {
    const versions = migrations.map((migration) => migration.version);
    expect(versions[0]).toBe(1);
    // Strictly increasing rather than dense: version 9 (run states) is added on another branch.
    expect(versions.every((version, index) => index === 0 || version > versions[index - 1]!)).toBe(true);
    for (const migration of migrations) {
      expect(migration.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(migration.up.length).toBeGreaterThan(0);
    }
  });

  it('takes generated keys from the dialect and spells nothing engine-specific itself', () => {
    const sql = migrations.flatMap((migration) => migration.up).join('\n');

    expect(sql).toContain('GENERATED_KEY_COLUMN');
    expect(sql).toContain('JSON_INTEGER(entry, uses)');
    expect(sql).not.toMatch(/AUTOINCREMENT|SERIAL|IDENTITY|JSONB|JSON_EXTRACT|DATETIME|PRAGMA|WITHOUT ROWID|STRICT/i);
    // REAL is a double to SQLite but a 4-byte float to PostgreSQL; fractional columns are DOUBLE PRECISION.
    expect(sql).not.toMatch(/\bREAL\b/i);
  });
});
