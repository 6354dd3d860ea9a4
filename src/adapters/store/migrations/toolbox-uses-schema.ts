import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 10 (9 is the run states' migration): the toolbox lives in the store, no longer mirrored from
 * a manifest file, and each tool's use count becomes a column of its own, so a call counts with one
 * atomic `uses = uses + 1` instead of a rewrite of the whole entry. Counts the entries already held
 * are copied out of their JSON; from now on the count in an entry's JSON is never read.
 */
export function toolboxUsesSchema(dialect: SqlDialect): Migration {
  return {
    version: 10,
    name: 'toolbox-uses',
    up: [
      'ALTER TABLE toolbox_entries ADD COLUMN uses BIGINT NOT NULL DEFAULT 0 CHECK (uses >= 0)',
      `UPDATE toolbox_entries SET uses = COALESCE(${dialect.jsonInteger('entry', 'uses')}, 0)`,
    ],
  };
}
