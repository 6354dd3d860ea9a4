import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (one folder up from both src/ and dist/). */
export const FORGE_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
