import pg from 'pg';
import { migrationsFor } from '../migrations/index.js';
import { type SqlRow, SqlStore, type TableLoading, type TableShape } from '../sql/index.js';
import { applyPostgresMigrations } from './apply-postgres-migrations.js';
import { loadPostgresTable } from './load-postgres-table.js';
import { postgresCatalog } from './postgres-catalog.js';
import { postgresConnection } from './postgres-connection.js';
import { postgresDialect } from './postgres-dialect.js';
import { postgresFailure } from './postgres-failure.js';
import { PostgresSqlAccess } from './postgres-sql-access.js';
import { postgresTypes } from './postgres-types.js';

/** Connections a store keeps open at most, by default. */
const DEFAULT_POOL_SIZE = 10;
/** How long getting a connection may take before the read or write fails, by default. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export interface PostgresStoreOptions {
  /** A `postgres://` or `postgresql://` URL (FORGE_DATABASE_URL); see `postgresConnection`. */
  readonly url: string;
  /**
   * The schema to keep Forge's tables in, created when missing (a plain lower-case identifier); by
   * default the connection's own search path (`public`, or what the URL's `options` set).
   */
  readonly schema?: string;
  /** Most connections open at once (default 10): reads and write units beyond it wait for a free one. */
  readonly poolSize?: number;
  /** How long getting a connection may take (default 10 s) before the operation fails with a `SystemError`. */
  readonly connectTimeoutMs?: number;
}

/**
 * The store on a PostgreSQL server: `SqlStore`'s table stores on a pool of connections. `open` brings
 * the schema up to date before it resolves (see `applyPostgresMigrations`: several processes may open
 * one database at once) and refuses a database a newer Forge wrote (`SchemaVersionError`).
 *
 * Reads run at once on any free connection. Every write unit (each table store's write, and each
 * `transaction`) commits in one SERIALIZABLE transaction on one connection (see `PostgresSqlAccess`),
 * and its promise resolves once PostgreSQL has committed it: it survives this process and, with the
 * server's default `synchronous_commit`, the server's crash. Foreign keys are enforced. A server that
 * cannot be reached, or refuses the login, is a `SystemError` naming `host:port` and the fix; no error
 * of this store carries the URL's password.
 */
export class PostgresStore extends SqlStore implements TableLoading {
  private constructor(private readonly access: PostgresSqlAccess) {
    super(access, postgresCatalog, postgresDialect);
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const connection = postgresConnection(options.url, options.schema);
    const pool = new pg.Pool({
      connectionString: connection.connectionString,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      types: postgresTypes,
    });
    // An idle connection the server closes (a restart, an idle timeout) is dropped from the pool, which
    // reports it here; the next operation opens a new one, or fails itself if the server is gone.
    pool.on('error', () => undefined);
    const access = new PostgresSqlAccess(pool, (error) => postgresFailure(error, connection));
    try {
      await access.onConnection((client) => applyPostgresMigrations(client, migrationsFor(postgresDialect), connection.schema));
    } catch (error) {
      await access.close();
      throw error;
    }
    return new PostgresStore(access);
  }

  loadTable(table: TableShape, batches: AsyncIterable<readonly SqlRow[]>): Promise<number> {
    return this.access.onConnection((client) => loadPostgresTable(client, table, batches));
  }

  /** Waits for the operations in flight, then closes every connection; closing twice is closing once. */
  override close(): Promise<void> {
    return this.access.close();
  }
}
