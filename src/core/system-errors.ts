import { ForgeError } from './errors.js';

/**
 * An error of the operating system, SQLite or the network (`ENOENT`, `EADDRINUSE`, `SQLITE_READONLY`,
 * `fetch failed`, …) said the way a person can act on it: what failed (the file, port or host) and
 * how to fix it. `code` keeps the system's own code for scripts; the message never leads with it.
 */
export class SystemError extends ForgeError {
  /** The system's code, e.g. `ENOENT` or `SQLITE_READONLY`. */
  readonly code: string;
  /** The file, `host:port` or URL it concerns; undefined when the system did not say. */
  readonly target: string | undefined;
  constructor(options: { code: string; target?: string; message: string; hint: string; cause?: unknown }) {
    super({ name: 'SystemError', message: options.message, hint: options.hint, cause: options.cause });
    this.code = options.code;
    this.target = options.target;
  }
}

interface SystemErrorFields {
  readonly code?: unknown;
  readonly path?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
  readonly hostname?: unknown;
  readonly syscall?: unknown;
}

/** What a SQLite error code means for the database `file` (when known), and what to do about it. */
function sqliteError(code: string, file: string | undefined, cause: unknown): SystemError | undefined {
  const database = file === undefined ? 'the database' : `the database ${file}`;
  const elsewhere = 'or point FORGE_DATABASE_URL (or FORGE_HOME) at a writable place';
  // Extended codes (SQLITE_READONLY_DIRECTORY, SQLITE_CANTOPEN_ISDIR, …) mean what their base code means.
  switch (code.split('_').slice(0, 2).join('_')) {
    case 'SQLITE_READONLY':
      return new SystemError({ code, target: file, message: `Forge cannot write to ${database}: it is read-only.`, hint: `Make the file and its folder writable by you (chmod u+w), ${elsewhere}.`, cause });
    case 'SQLITE_CANTOPEN':
      return new SystemError({ code, target: file, message: `Forge cannot open ${database}.`, hint: `Check that its folder exists and that you may read and write it, ${elsewhere}.`, cause });
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return new SystemError({ code, target: file, message: `${file ?? 'The database file'} is not a readable Forge database (it is damaged, or not a database at all).`, hint: `Move the file aside (Forge starts a new one), ${elsewhere}.`, cause });
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new SystemError({ code, target: file, message: `${database.charAt(0).toUpperCase()}${database.slice(1)} is locked by another process.`, hint: 'Wait for the other forge command to finish and run this one again.', cause });
    case 'SQLITE_FULL':
      return new SystemError({ code, target: file, message: `The disk holding ${database} is full.`, hint: 'Free some space and run the command again.', cause });
    default:
      return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** The errno code of an error, reading SQLite's `ConnectionFailed(…: 14)` (14 is SQLITE_CANTOPEN) as its code. */
function codeOf(error: Error & SystemErrorFields): string | undefined {
  if (/ConnectionFailed\(.*:\s*14\b/.test(error.message)) return 'SQLITE_CANTOPEN';
  if (/attempt to write a readonly database/i.test(error.message)) return 'SQLITE_READONLY';
  if (/file is not a database/i.test(error.message)) return 'SQLITE_NOTADB';
  return text(error.code);
}

/**
 * The Forge error for a system error, or undefined when `error` is not one this knows (Forge's own
 * errors included: they already say what to do). `target` is what the boundary that caught the error
 * was working on (the database file, the host name), used where the error does not say: SQLite's
 * errors never name their file. An error's own path or address wins over it. An undici `fetch failed`
 * is read through its cause, which holds the real reason (connection refused, unknown host, …).
 */
export function systemErrorOf(error: unknown, target?: string): SystemError | undefined {
  if (error instanceof SystemError) return error;
  // Forge's own errors already say what to do, even those with a `code` field of their own.
  if (ForgeError.isInstance(error) || !(error instanceof Error)) return undefined;
  if (error.message === 'fetch failed' && error.cause !== undefined) return systemErrorOf(error.cause, target) ?? networkFailure(error, target);
  const fields = error as Error & SystemErrorFields;
  const code = codeOf(fields);
  if (code === undefined) return undefined;
  if (code.startsWith('SQLITE_')) return sqliteError(code, target, error);
  // The error's own path or address is the exact one; `target` names what the boundary was opening.
  const file = text(fields.path) ?? target;
  const endpoint = endpointOf(fields) ?? target;
  switch (code) {
    case 'ENOENT':
      return new SystemError({ code, target: file, message: `${file ?? 'A file'} does not exist.`, hint: 'Check the path (a relative path is read from the current folder) and run the command again.', cause: error });
    case 'EEXIST':
      if (fields.syscall === 'mkdir') return new SystemError({ code, target: file, message: `${file ?? 'A path'} is a file, where Forge needs a folder.`, hint: 'Move the file aside, or point FORGE_HOME (or the option you gave) at a folder.', cause: error });
      return new SystemError({ code, target: file, message: `${file ?? 'The file'} already exists.`, hint: 'Choose another name, or move the existing file aside first.', cause: error });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new SystemError({
        code,
        target: file,
        message: `Permission denied: ${file ?? 'a file'} cannot be ${fields.syscall === 'open' || fields.syscall === 'mkdir' ? 'opened or created' : 'used'} by you${code === 'EROFS' ? ' (the file system is read-only)' : ''}.`,
        hint: 'Check its owner and mode (ls -l), make it writable by you (chmod u+rw), or point FORGE_HOME at a folder you own.',
        cause: error,
      });
    case 'ENOTDIR':
      return new SystemError({ code, target: file, message: `${file ?? 'A path'} goes through a file as if it were a folder.`, hint: 'Move that file aside, or use another path.', cause: error });
    case 'EISDIR':
      return new SystemError({ code, target: file, message: `${file ?? 'The path'} is a folder, not a file.`, hint: 'Pass the path of a file.', cause: error });
    case 'ENOSPC':
      return new SystemError({ code, target: file, message: `No space left on the disk${file === undefined ? '' : ` holding ${file}`}.`, hint: 'Free some space and run the command again.', cause: error });
    case 'EADDRINUSE':
      return new SystemError({
        code,
        target: endpoint,
        message: `${endpoint === undefined ? 'The port' : `Port ${endpoint}`} is already in use by another program.`,
        hint: `Stop the program listening there${fields.port === undefined ? '' : ` (see \`lsof -i :${text(fields.port)}\`)`}, or pass another --port (--port 0 picks a free one).`,
        cause: error,
      });
    case 'EADDRNOTAVAIL':
      return new SystemError({ code, target: endpoint, message: `${endpoint ?? 'The address'} is not an address of this machine, so nothing can listen on it.`, hint: 'Pass --host 127.0.0.1, or an address this machine has.', cause: error });
    case 'ECONNREFUSED':
      return new SystemError({ code, target: endpoint, message: `Nothing is listening at ${endpoint ?? 'the address asked for'} (connection refused).`, hint: 'Start the service there, or correct the host and port in its URL.', cause: error });
    case 'ENOTFOUND':
    case 'EAI_AGAIN': {
      const host = text(fields.hostname) ?? target;
      const why = code === 'EAI_AGAIN' ? ' right now (DNS did not answer)' : '';
      return new SystemError({ code, target: host, message: `The host name ${host ?? 'asked for'} cannot be resolved${why}.`, hint: 'Check the spelling of the host in the URL and your network connection.', cause: error });
    }
    case 'ECONNRESET':
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_SOCKET':
      return new SystemError({ code, target: endpoint, message: `The connection to ${endpoint ?? 'the server'} ${code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' ? 'was cut' : 'timed out'}.`, hint: 'Check that the service is up and reachable from here, then try again.', cause: error });
    default:
      return undefined;
  }
}

function endpointOf(fields: SystemErrorFields): string | undefined {
  const address = text(fields.address) ?? text(fields.hostname);
  const port = text(fields.port);
  if (address === undefined) return port === undefined ? undefined : port;
  return port === undefined ? address : `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

function networkFailure(error: Error, target: string | undefined): SystemError {
  return new SystemError({ code: 'FETCH_FAILED', target, message: `The request${target === undefined ? '' : ` to ${target}`} failed before any response arrived.`, hint: 'Check that the service is up and that its URL is right, then try again.', cause: error });
}

/**
 * The first system error in `error` or what it wraps (`cause`, and `lastError` of a retry that gave
 * up), e.g. the `ECONNREFUSED` under a vendor SDK's "Cannot connect to API"; undefined when none is.
 */
export function systemErrorWithin(error: unknown): SystemError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const found = ForgeError.isInstance(current) && !(current instanceof SystemError) ? undefined : systemErrorOf(current);
    if (found !== undefined) return found;
    const wrapper = current as { cause?: unknown; lastError?: unknown };
    current = wrapper.lastError ?? wrapper.cause;
  }
  return undefined;
}

/**
 * Turns anything thrown into the plain `{name, message, hint?}` shape used in events, JSON output and
 * the terminal. A system error (see `systemErrorOf`) is told the way a person can act on it, never as
 * a raw `ENOENT` or `fetch failed`.
 */
export function describeError(error: unknown): { name: string; message: string; hint?: string } {
  if (ForgeError.isInstance(error)) return error.toJSON();
  const system = systemErrorOf(error);
  if (system !== undefined) return system.toJSON();
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
