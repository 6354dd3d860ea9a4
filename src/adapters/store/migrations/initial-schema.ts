import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Version 1: runs with their events and steps, conversations with their messages, and the model-call
 * ledger.
 *
 * Choices shared by every table:
 * - JSON is kept as TEXT, not a native JSON type: PostgreSQL's JSONB reorders keys and drops
 *   duplicates, and stored values must read back exactly as written.
 * - Timestamps are ISO-8601 UTC TEXT: the same string in every engine, and it sorts in time order.
 * - Durations and dollars are DOUBLE PRECISION so fractional values survive; token counts are BIGINT.
 * - Foreign keys tie records to what owns them (an event to its run, a message to its conversation),
 *   never to what they merely mention, so a record is not refused because a sibling was not stored.
 */
export function initialSchema(dialect: SqlDialect): Migration {
  return {
    version: 1,
    name: 'initial-schema',
    up: [
      // `ordinal` orders runs by creation when several share the same millisecond timestamp.
      `CREATE TABLE runs (
        ordinal ${dialect.generatedKeyColumn},
        id TEXT NOT NULL UNIQUE,
        task TEXT NOT NULL,
        model TEXT NOT NULL,
        status TEXT NOT NULL,
        halt_reason TEXT,
        answer TEXT,
        conversation_id TEXT,
        llm_calls BIGINT NOT NULL,
        input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cost_usd DOUBLE PRECISION,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      // `body` is the whole event; the other columns are copies kept for querying.
      `CREATE TABLE events (
        run_id TEXT NOT NULL REFERENCES runs (id),
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        ts TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      )`,
      // `input` is NULL only when the step had no input at all (JSON null is the text 'null').
      `CREATE TABLE steps (
        run_id TEXT NOT NULL REFERENCES runs (id),
        position INTEGER NOT NULL,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        input TEXT,
        output TEXT,
        error TEXT,
        duration_ms DOUBLE PRECISION NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, position)
      )`,
      `CREATE TABLE conversations (
        ordinal ${dialect.generatedKeyColumn},
        id TEXT NOT NULL UNIQUE,
        title TEXT,
        created_at TEXT NOT NULL
      )`,
      // The role check lets the database refuse a bad message inside the append transaction, so one
      // bad message rolls back the whole batch.
      `CREATE TABLE messages (
        id ${dialect.generatedKeyColumn},
        conversation_id TEXT NOT NULL REFERENCES conversations (id),
        position INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content TEXT,
        tool_call_ids TEXT NOT NULL,
        model TEXT,
        input_tokens BIGINT,
        output_tokens BIGINT,
        run_id TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (conversation_id, position)
      )`,
      // No foreign key on run_id: the cost ledger keeps every call, even one whose run was not stored.
      `CREATE TABLE model_calls (
        id ${dialect.generatedKeyColumn},
        run_id TEXT,
        model TEXT NOT NULL,
        purpose TEXT NOT NULL,
        input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cost_usd DOUBLE PRECISION,
        latency_ms DOUBLE PRECISION NOT NULL,
        input_hash TEXT NOT NULL,
        ts TEXT NOT NULL
      )`,
      'CREATE INDEX model_calls_by_run ON model_calls (run_id, id)',
    ],
  };
}
