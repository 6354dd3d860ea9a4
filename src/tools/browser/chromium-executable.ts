import { accessSync, constants, statSync } from 'node:fs';
import { BrowserUnavailableError } from './browser-errors.js';

/** Where Chromium and Chrome are installed by the usual packages, looked for in this order. */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * The browser executable to launch: FORGE_CHROMIUM_PATH when it is set (then that one only, so a wrong
 * setting is reported rather than passed over), else the first of `candidates` that is an executable
 * file. Throws `BrowserUnavailableError` saying what was looked for.
 */
export function findChromium(env: Readonly<Record<string, string | undefined>>, candidates: readonly string[] = CHROMIUM_CANDIDATES): string {
  const configured = env['FORGE_CHROMIUM_PATH']?.trim();
  if (configured !== undefined && configured !== '') {
    if (isExecutableFile(configured)) return configured;
    throw new BrowserUnavailableError(`FORGE_CHROMIUM_PATH is ${configured}, which is not an executable file.`, [configured]);
  }
  const found = candidates.find(isExecutableFile);
  if (found !== undefined) return found;
  throw new BrowserUnavailableError(`no Chromium or Chrome was found (looked for ${candidates.join(', ')}).`, candidates);
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
