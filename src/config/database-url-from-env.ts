import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The database URL Forge should open: `FORGE_DATABASE_URL` when it is set and not blank, otherwise
 * the file `forge.db` in the Forge home folder, as an absolute `file:` URL (a relative `forgeHome`
 * resolves against the current working folder).
 */
export function databaseUrlFromEnv(env: Readonly<Record<string, string | undefined>>, forgeHome: string): string {
  const configured = env['FORGE_DATABASE_URL']?.trim();
  return configured === undefined || configured === '' ? pathToFileURL(resolve(forgeHome, 'forge.db')).href : configured;
}
