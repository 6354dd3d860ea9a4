/**
 * One step of the schema's history. A database applies each version exactly once, in ascending order,
 * and records it in `schema_migrations`. A released migration is never edited; a change to the schema
 * is always a new migration with the next version.
 */
export interface Migration {
  /** Positive, strictly increasing through the list, never reused. */
  readonly version: number;
  /** A short kebab-case description, stored beside the version for people reading the database. */
  readonly name: string;
  /** Statements applied in order, in the same transaction that records the version. */
  readonly up: readonly string[];
}
