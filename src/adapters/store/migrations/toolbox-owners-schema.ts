import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 23: whose toolbox holds each tool. `owner` is the account whose runs alone are offered the
 * tool (what a run of a plain account synthesizes stays there until an admin promotes it), or null
 * for the installation's toolbox, offered to every run: every tool stored before is the installation's.
 */
export function toolboxOwnersSchema(_dialect: SqlDialect): Migration {
  return {
    version: 23,
    name: 'toolbox-owners',
    up: ['ALTER TABLE toolbox_entries ADD COLUMN owner TEXT'],
  };
}
