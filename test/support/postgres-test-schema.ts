import pg from 'pg';

/** The PostgreSQL the tests use: FORGE_TEST_POSTGRES_URL, or the server CI starts (trust auth, database `test`). */
export const POSTGRES_TEST_URL = process.env['FORGE_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

let made = 0;

/** A schema name no other test, file or process uses, so tests running in parallel never share tables. */
export function freshSchemaName(): string {
  made += 1;
  return `forge_test_${process.pid}_${Date.now().toString(36)}_${made}`;
}

/** Runs `work` on a connection of its own whose search path is `schema` (for looking at the tables a test's store wrote, or changing them behind its back). */
export async function onSchema<T>(schema: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops `schema` and everything in it; nothing happens when it does not exist. */
export async function dropSchema(schema: string): Promise<void> {
  await onSchema('public', (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
}

/** Creates `schema` (empty), for a store a URL points at (see `postgresTestUrl`). */
export async function createSchema(schema: string): Promise<void> {
  await onSchema('public', (client) => client.query(`CREATE SCHEMA ${schema}`));
}

/** A FORGE_DATABASE_URL for the test server whose tables live in `schema` (its `options` set the search path). */
export function postgresTestUrl(schema: string): string {
  const url = new URL(POSTGRES_TEST_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}
