import { ForgeError, SystemError } from '../../../core/index.js';
import type { PostgresConnection } from './postgres-connection.js';

const FIX_URL = 'or correct the host and port in FORGE_DATABASE_URL';

/**
 * The error a caller of the PostgreSQL store gets for `error`: a failure to reach or use the server
 * (nothing listening, an unknown host, a timeout, a cut connection, a refused login, a missing
 * database or schema, a server out of connections) as a `SystemError` naming `host:port` and the fix; any other
 * error (a broken constraint, which the table stores map themselves) as it is. Neither ever carries
 * the URL's password: where the server or the driver repeats it, it is masked.
 */
export function postgresFailure(error: unknown, connection: PostgresConnection): unknown {
  if (ForgeError.isInstance(error) || !(error instanceof Error)) return error;
  if (connection.password !== undefined && error.message.includes(connection.password)) error.message = error.message.split(connection.password).join('***');
  return reachFailure(error, connection.endpoint) ?? error;
}

function reachFailure(error: Error, endpoint: string): SystemError | undefined {
  const code = (error as { code?: unknown }).code;
  const system = (systemCode: string, message: string, hint: string) => new SystemError({ code: systemCode, target: endpoint, message, hint, cause: error });
  switch (code) {
    case 'ECONNREFUSED':
      return system(code, `Nothing is listening at ${endpoint}, where FORGE_DATABASE_URL says the PostgreSQL server is (connection refused).`, `Start PostgreSQL there, ${FIX_URL}.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return system(code, `The host of the PostgreSQL server (${endpoint}) cannot be resolved.`, `Check the spelling of the host in FORGE_DATABASE_URL and your network connection.`);
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'EPIPE':
      return system(code, `The connection to the PostgreSQL server at ${endpoint} ${code === 'ETIMEDOUT' ? 'timed out' : 'was cut'}.`, 'Check that the server is up and reachable from here, then try again.');
    case '28P01':
    case '28000':
      return system(code, `The PostgreSQL server at ${endpoint} refused the login: ${error.message}.`, 'Check the user and password in FORGE_DATABASE_URL (percent-encode special characters of the password).');
    case '3D000':
      return system(code, `The PostgreSQL server at ${endpoint} says: ${error.message}.`, 'Create it (createdb <name>), or name an existing database in FORGE_DATABASE_URL.');
    case '3F000':
      return system(code, `The PostgreSQL server at ${endpoint} has no schema to create Forge's tables in: the search_path the URL's options set names none that exists.`, 'Create the schema (CREATE SCHEMA <name>), or correct search_path in the options of FORGE_DATABASE_URL.');
    case '53300':
    case '57P03':
      return system(code, `The PostgreSQL server at ${endpoint} takes no more connections right now: ${error.message}.`, 'Wait and retry, or lower the pool size of the Forge processes sharing the server.');
    default:
      break;
  }
  // The driver's own words for a connection that never came or went away mid-statement.
  if (/timeout exceeded when trying to connect|connection timeout/i.test(error.message)) {
    return system(
      'ETIMEDOUT',
      `No connection to the PostgreSQL server at ${endpoint} came in time: the server did not answer, or every connection of the pool stayed busy.`,
      `Check that the server is up and reachable from here, ${FIX_URL}; if it is, this process has more work at once than its pool has connections.`,
    );
  }
  if (/Connection terminated/i.test(error.message)) {
    return system('ECONNRESET', `The connection to the PostgreSQL server at ${endpoint} was cut.`, 'Check that the server is up, then try again; a write in flight may not have been committed.');
  }
  return undefined;
}
