import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInSandbox } from './run-in-sandbox.js';

let base: string;
let jailRoot: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'forge-sandbox-fs-'));
  jailRoot = join(base, 'tool-folder');
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'secret.txt'), 'top secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function runWithFiles(body: string) {
  return runInSandbox({
    source: `export default async function run(input, forge) { ${body} }`,
    input: null,
    capabilities: ['fs'],
    hostCapabilities: { jailRoot },
    limits: { cpuMs: 1_000, wallMs: 10_000 },
  });
}

describe('forge.fs', () => {
  it("writes, reads and lists text files in the tool's folder", async () => {
    const result = await runWithFiles(`
      await forge.fs.writeFile('notes/today.txt', 'remember the milk');
      const text = await forge.fs.readFile('notes/today.txt');
      return { text, root: await forge.fs.list(), notes: await forge.fs.list('notes') };`);
    expect(result).toMatchObject({
      ok: true,
      value: { text: 'remember the milk', root: [{ name: 'notes', type: 'directory' }], notes: [{ name: 'today.txt', type: 'file' }] },
      capabilitiesUsed: ['fs'],
    });
    expect(await readFile(join(jailRoot, 'notes', 'today.txt'), 'utf8')).toBe('remember the milk');
  });

  it('refuses every way out of the folder, and the guest learns why without learning where the folder is', async () => {
    await mkdir(jailRoot);
    await symlink(join(base, 'outside'), join(jailRoot, 'door'));
    const result = await runWithFiles(`
      const attempts = [
        () => forge.fs.readFile('../outside/secret.txt'),
        () => forge.fs.readFile('/etc/passwd'),
        () => forge.fs.readFile('door/secret.txt'),
        () => forge.fs.writeFile('door/planted.txt', 'pwned'),
        () => forge.fs.writeFile('../outside/secret.txt', 'pwned'),
        () => forge.fs.list('door'),
        () => forge.fs.readFile('secret.txt\\u0000'),
      ];
      const outcomes = [];
      for (const attempt of attempts) {
        try { outcomes.push({ leaked: await attempt() }); } catch (error) { outcomes.push({ name: error.name, message: error.message }); }
      }
      return outcomes;`);
    if (!result.ok) throw new Error(result.error.message);
    const outcomes = result.value as { name?: string; message?: string; leaked?: unknown }[];
    expect(outcomes).toHaveLength(7);
    for (const outcome of outcomes) {
      expect(outcome.name).toBe('FileJailError');
      expect(outcome.message).not.toContain(base);
    }
    expect(await readFile(join(base, 'outside', 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('rejects a call with the wrong argument types with a readable message', async () => {
    const result = await runWithFiles('return await forge.fs.writeFile(42);');
    expect(result).toMatchObject({ ok: false, error: { name: 'CapabilityInputError', message: expect.stringContaining('forge.fs.writeFile: argument 1') } });
  });
});
