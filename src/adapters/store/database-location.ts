import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '../../core/index.js';

/** Where a database URL says the store lives: an embedded database in a file (absolute path) or in memory, or a PostgreSQL server. */
export type DatabaseLocation = { readonly kind: 'memory' } | { readonly kind: 'file'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

const acceptedForms =
  'Accepted forms: a file path (absolute, or relative to the current folder), file:/absolute/path.db, file:relative/path.db, :memory:, or postgres://user:password@host:5432/database.';

/**
 * Reads a database URL: `:memory:`, a `file:` URL (absolute or relative), a plain filesystem path, or a
 * `postgres://` / `postgresql://` URL (any case of the scheme), which is handed on as written for the
 * PostgreSQL store to read. Relative paths resolve against the current working folder. Throws
 * `ConfigurationError` for any other form, listing the accepted ones. Never repeats a whole URL in an
 * error, since server URLs can carry passwords.
 */
export function databaseLocationFromUrl(url: string): DatabaseLocation {
  const text = url.trim();
  if (text === '') throw new ConfigurationError('FORGE_DATABASE_URL', `The database URL is empty. ${acceptedForms}`);
  if (text === ':memory:') return { kind: 'memory' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  // A one-letter "scheme" is a Windows drive (C:\forge.db): a path, not a URL.
  if (scheme === undefined || scheme.length === 1) return plainPathLocation(text);
  if (scheme === 'file') return fileUrlLocation(text);
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', url: `${scheme}${text.slice(scheme.length)}` };
  throw new ConfigurationError('FORGE_DATABASE_URL', `Unsupported database URL scheme "${scheme}:". ${acceptedForms}`);
}

/**
 * A plain path is taken only when it looks like one: absolute, with a folder in it, or a file name with
 * an extension (`forge.db`). A bare word (`garbage`, a value pasted into the wrong variable) is refused
 * rather than created as a database file of that name.
 */
function plainPathLocation(text: string): DatabaseLocation {
  if (/[\\/]/.test(text) || /\.[A-Za-z0-9]+$/.test(text)) return { kind: 'file', path: resolve(text) };
  throw new ConfigurationError(
    'FORGE_DATABASE_URL',
    `The value is neither a database URL nor the path of a database file (a bare word, with no folder and no extension); nothing was created. ${acceptedForms}`,
    'Write a path with a folder or an extension (./forge.db, /var/forge/forge.db), or unset FORGE_DATABASE_URL to keep the data in forge.db inside FORGE_HOME.',
  );
}

function fileUrlLocation(url: string): DatabaseLocation {
  const rest = url.slice('file:'.length);
  if (rest === ':memory:') return { kind: 'memory' };
  if (/[?#]/.test(rest)) {
    throw new ConfigurationError(
      'FORGE_DATABASE_URL',
      `A file: database URL takes no query or fragment. Write ? and # in a file name as %3F and %23. ${acceptedForms}`,
    );
  }
  try {
    // The URL standard has no relative file URLs, so only absolute ones go through the URL parser.
    return { kind: 'file', path: rest.startsWith('/') ? fileURLToPath(url) : resolve(decodeURIComponent(rest)) };
  } catch (error) {
    throw new ConfigurationError('FORGE_DATABASE_URL', `Not a usable file: URL (${describeCause(error)}). ${acceptedForms}`);
  }
}

function describeCause(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
