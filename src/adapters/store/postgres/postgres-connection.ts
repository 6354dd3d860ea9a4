import { ConfigurationError } from '../../../core/index.js';

/** A schema name the store accepts: a plain lower-case identifier, so it needs no quoting anywhere it goes. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Where a PostgreSQL store connects, as the pool and the store's messages need it. */
export interface PostgresConnection {
  /** The URL the pool connects with: the one given, with the schema's `search_path` added to its `options`. */
  readonly connectionString: string;
  /** `host:port` of the server, for messages; never carries a credential. */
  readonly endpoint: string;
  /** The URL's password, decoded, so the store can keep it out of every message; undefined when it has none. */
  readonly password: string | undefined;
  /** The schema Forge's tables live in when one was asked for, created when missing. */
  readonly schema: string | undefined;
}

/**
 * Reads a `postgres://` or `postgresql://` URL (`postgres://user:password@host:port/database?…`; the
 * query is libpq's, e.g. `sslmode=require`, `options=-c search_path=forge`). `schema` puts Forge's
 * tables in that schema (`-c search_path=<schema>` is added to the URL's `options`); it must be a plain
 * lower-case identifier. Throws `ConfigurationError`, naming neither the URL nor its password, for a
 * URL that does not parse or a schema name that is not plain.
 */
export function postgresConnection(url: string, schema?: string): PostgresConnection {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new ConfigurationError(
      'FORGE_DATABASE_URL',
      'Not a usable PostgreSQL URL (it does not parse). Accepted form: postgres://user:password@host:5432/database, with any character of the password that is not a letter or digit percent-encoded.',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigurationError('FORGE_DATABASE_URL', 'Not a PostgreSQL URL: it must start with postgres:// or postgresql://.');
  }
  if (schema !== undefined) {
    if (!SCHEMA_NAME.test(schema)) throw new ConfigurationError('schema', `"${schema}" is not a plain schema name: use lower-case letters, digits and _, starting with a letter or _.`);
    const options = parsed.searchParams.get('options');
    parsed.searchParams.set('options', `${options === null ? '' : `${options} `}-c search_path=${schema}`);
  }
  const host = parsed.hostname === '' ? (parsed.searchParams.get('host') ?? 'localhost') : parsed.hostname;
  return {
    connectionString: parsed.href,
    endpoint: `${host}:${parsed.port === '' ? '5432' : parsed.port}`,
    password: parsed.password === '' ? undefined : decodedPassword(parsed.password),
    schema,
  };
}

/** The password as the server gets it; a malformed escape is kept as written (the server will refuse it, and it is still kept out of messages). */
function decodedPassword(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
