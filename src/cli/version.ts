import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (two folders up from both src/cli and dist/cli). */
export const FORGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
