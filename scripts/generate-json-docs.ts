import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonSchemaDocuments } from '../src/cli/json-output/index.js';

/** `npm run docs:json`: writes docs/json/ from the zod output schemas, removing files no schema makes any more. */
const folder = fileURLToPath(new URL('../docs/json/', import.meta.url));
const documents = jsonSchemaDocuments();
await mkdir(folder, { recursive: true });
for (const name of await readdir(folder)) {
  if (name.endsWith('.schema.json') && documents[name] === undefined) await rm(path.join(folder, name));
}
for (const [name, text] of Object.entries(documents)) await writeFile(path.join(folder, name), text);
process.stdout.write(`wrote ${Object.keys(documents).length} JSON Schemas to ${folder}\n`);
