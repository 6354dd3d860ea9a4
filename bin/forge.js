#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('forge: the compiled CLI is missing (dist/cli/main.js). Run `npm install` or `npm run build` in the Forge folder first.\n');
  process.exit(1);
}
await import(entry.href);
