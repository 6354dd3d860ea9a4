import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileJail, FileJailError } from './file-jail.js';
import { plantEscapes, traversalPaths } from './traversal-contract.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'forge-jail-traversal-'));
  root = join(base, 'jail');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** What a jailed operation gave: its value, or the refusal's reason. Never the secret. */
async function attempt(operation: Promise<unknown>): Promise<string> {
  try {
    const value = await operation;
    return `value:${JSON.stringify(value)}`;
  } catch (error) {
    if (error instanceof FileJailError) return `refused:${error.reason}`;
    throw error;
  }
}

async function allChunks(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * The path-traversal list (traversal-contract.ts) every file tool must withstand. A name that only looks
 * like a traversal is a name inside the jail; anything that would reach outside is refused; nothing blocks.
 */
describe('the file jail against a traversal list', () => {
  it.each(traversalPaths)('%j reads nothing outside, and writes nothing outside', async (path) => {
    const jail = createFileJail(root);
    expect(await attempt(jail.readFile(path))).not.toContain('top secret');
    expect(await attempt(allChunks(jail.readChunks(path)))).not.toContain('top secret');
    await attempt(jail.writeFile(path, 'overwritten'));
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(execFileSync('find', [outside, '-newer', join(outside, 'secret.txt')], { encoding: 'utf8' }).trim()).toBe('');
  });

  it('refuses a chain of symlinks that ends outside, at every link, and links through folders outside', async () => {
    const planted = await plantEscapes(root, outside);
    const jail = createFileJail(root);
    for (const path of [...planted.symlinkChain, ...planted.linkedPaths]) {
      expect(await attempt(jail.readFile(path))).toMatch(/^refused:/);
      expect(await attempt(allChunks(jail.readChunks(path)))).toMatch(/^refused:/);
      expect(await attempt(jail.writeFile(path, 'overwritten'))).toMatch(/^refused:/);
    }
    expect(await attempt(jail.list('out-dir'))).toMatch(/^refused:outside-jail/);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(existsSync(planted.danglingTarget)).toBe(false);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });

  it('refuses device files and FIFOs instead of reading them (no endless read, no hang)', async () => {
    const planted = await plantEscapes(root, outside);
    const jail = createFileJail(root);
    for (const path of planted.specialFiles) {
      expect(await attempt(jail.readFile(path))).toMatch(/^refused:/);
      expect(await attempt(allChunks(jail.readChunks(path)))).toMatch(/^refused:/);
    }
    expect(await attempt(jail.writeFile('pipe', 'x'))).toMatch(/^refused:/);
  });
});
