#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// What `node --disable-proto=delete` does, for this process's main realm, before any Forge code loads:
// without the accessor, `target[key] = value` with a key from data ("__proto__") makes an own property
// instead of replacing a prototype, and `x.__proto__.y = …` throws instead of reaching Object.prototype.
// Done here rather than by re-running Node with the flag, which would cost every command a second start.
delete Object.prototype.__proto__;

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('forge: the compiled CLI is missing (dist/cli/main.js). Run `npm install` or `npm run build` in the Forge folder first.\n');
  process.exit(1);
}
await import(entry.href);
