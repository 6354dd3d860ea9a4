import { describe, expect, it } from 'vitest';
import { migrationsFor } from './migrations-for.js';

describe('migrationsFor', () => {
  const migrations = migrationsFor({ generatedKeyColumn: 'GENERATED_KEY_COLUMN' });

  it('numbers migrations 1, 2, 3… with kebab-case names', () => {
    expect(migrations.map((migration) => migration.version)).toEqual(migrations.map((_, index) => index + 1));
    for (const migration of migrations) {
      expect(migration.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(migration.up.length).toBeGreaterThan(0);
    }
  });

  it('takes generated keys from the dialect and spells nothing engine-specific itself', () => {
    const sql = migrations.flatMap((migration) => migration.up).join('\n');

    expect(sql).toContain('GENERATED_KEY_COLUMN');
    expect(sql).not.toMatch(/AUTOINCREMENT|SERIAL|IDENTITY|JSONB|DATETIME|PRAGMA|WITHOUT ROWID|STRICT/i);
  });
});
