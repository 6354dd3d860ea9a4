#!/usr/bin/env node
// Builds Forge (the TypeScript to dist/, the web UI to dist/web) unless dist/ was already built from
// exactly these sources: `npm install` builds through `prepare`, and `npm link`, `npm test` and a second
// `npm install` then find the stamp and skip the 30-odd seconds of a second identical build.
// `node scripts/build.mjs --force` (or `npm run build -- --force`) always builds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = path.join(root, 'dist', '.build-inputs');
const outputs = ['dist/cli/main.js', 'dist/library/index.js', 'dist/web/index.html'];
const inputFiles = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const inputFolders = ['src', 'web'];

/** Every file the build reads, in a stable order (tests are not built). */
function inputs() {
  const files = inputFiles.filter((file) => existsSync(path.join(root, file)));
  const walk = (folder) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(relative);
      } else if (!/\.test\.tsx?$/.test(entry.name)) files.push(relative);
    }
  };
  for (const folder of inputFolders) walk(folder);
  return files;
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of inputs()) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const current = fingerprint();
const stamped = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
if (!force && stamped === current && outputs.every((file) => existsSync(path.join(root, file)))) {
  console.log('forge build: dist/ is up to date with src/ and web/ (node scripts/build.mjs --force rebuilds)');
  process.exit(0);
}

const run = (script, args) => execFileSync(process.execPath, [path.join(root, 'node_modules', ...script), ...args], { cwd: root, stdio: 'inherit' });
run(['typescript', 'bin', 'tsc'], ['-p', 'tsconfig.build.json']);
run(['vite', 'bin', 'vite.js'], ['build', 'web']);
writeFileSync(stampFile, `${current}\n`);
