import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 13: the marketplace. `products` package a skill (pinned at one version) for customers: a
 * unique name, a description, a price in minor units of a currency, the fields of the skill's final
 * result handed to customers (JSON array; nothing else of it leaves), a published flag, the seller.
 * `purchases` is the usage ledger: one row per customer run, with the run it made, its status, the
 * model cost it really had and the price charged (nothing unless it completed).
 *
 * `cost_usd` was first written `REAL`: the same to SQLite (both have REAL affinity, so databases made
 * then hold exactly what they would now), but a 4-byte float to PostgreSQL, which would round costs.
 */
export function marketplaceSchema(_dialect: SqlDialect): Migration {
  return {
    version: 13,
    name: 'marketplace',
    up: [
      `CREATE TABLE products (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        seller_id TEXT,
        skill_id TEXT NOT NULL,
        skill_version INTEGER NOT NULL,
        description TEXT NOT NULL,
        price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
        currency TEXT NOT NULL,
        output_fields TEXT NOT NULL,
        published INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE TABLE purchases (
        id TEXT PRIMARY KEY,
        product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        customer_id TEXT NOT NULL,
        run_id TEXT,
        skill_version INTEGER NOT NULL,
        status TEXT NOT NULL,
        answer TEXT,
        cost_usd DOUBLE PRECISION,
        price_minor INTEGER NOT NULL,
        currency TEXT NOT NULL,
        created_at TEXT NOT NULL,
        finished_at TEXT
      )`,
      'CREATE INDEX purchases_by_customer ON purchases (customer_id, created_at)',
    ],
  };
}
