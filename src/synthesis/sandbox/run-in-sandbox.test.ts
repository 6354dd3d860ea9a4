import { describe, expect, it } from 'vitest';
import { runInSandbox } from './run-in-sandbox.js';
import type { SandboxResult } from './sandbox-result.js';
import { SandboxSetupError } from './sandbox-setup-error.js';

const limits = { cpuMs: 1_000, wallMs: 10_000, memoryBytes: 8 * 1024 * 1024 };

const wordCount = `
export default async function run(input, forge) {
  const words = input.text.split(/\\s+/).filter((word) => word.length > 0);
  forge.log('counted', words.length, { sample: words[0] });
  return { count: words.length };
}`;

function run(source: string, options: { input?: unknown; capabilities?: ('log' | 'fs' | 'fetch')[]; limits?: Partial<typeof limits> } = {}) {
  return runInSandbox({
    source,
    input: (options.input ?? null) as null,
    capabilities: options.capabilities ?? [],
    limits: { ...limits, ...options.limits },
  });
}

function failure(result: SandboxResult): { name: string; message: string; timedOut?: true; memoryExceeded?: true } {
  if (result.ok) throw new Error(`expected the run to fail, it returned ${JSON.stringify(result.value)}`);
  return { name: result.error.name, message: result.error.message, ...(result.timedOut ? { timedOut: true } : {}), ...(result.memoryExceeded ? { memoryExceeded: true } : {}) };
}

describe('runInSandbox', () => {
  it('runs a tool module and returns its JSON result, its logs and the capabilities it used', async () => {
    const result = await run(wordCount, { input: { text: 'the quick  brown fox' }, capabilities: ['log'] });
    expect(result).toMatchObject({ ok: true, value: { count: 4 }, logs: ['counted 4 {"sample":"the"}'], capabilitiesUsed: ['log'] });
  });

  it('records only capabilities actually called, not those merely granted', async () => {
    const result = await run('export default async function run() { return 1; }', { capabilities: ['log'] });
    expect(result).toMatchObject({ ok: true, value: 1, capabilitiesUsed: [] });
  });

  it('exposes no host globals: no process, require, timers, fetch or console', async () => {
    const result = await run(`export default async function run() {
      return [typeof process, typeof require, typeof module, typeof setTimeout, typeof fetch, typeof console, typeof globalThis.process];
    }`);
    expect(result).toMatchObject({ ok: true, value: Array(7).fill('undefined') });
  });

  it.concurrent.each([
    ['reads process.env', 'export default async function run() { return process.env; }', 'ReferenceError', /process/],
    ['calls require', "export default async function run() { return require('fs').readFileSync('/etc/passwd', 'utf8'); }", 'ReferenceError', /require/],
    [
      'reaches process through the Function constructor',
      "export default async function run() { return globalThis.constructor.constructor('return process')().env; }",
      'ReferenceError',
      /process/,
    ],
    ['imports fs dynamically', "export default async function run() { const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8'); }", 'Error', /imports are not available/],
    ['imports fs statically', "import { readFileSync } from 'node:fs';\nexport default async function run() { return readFileSync('/etc/passwd', 'utf8'); }", 'Error', /imports are not available/],
    ['calls an ungranted capability', "export default async function run(input, forge) { return forge.fs.readFile('secret.txt'); }", 'CapabilityNotGrantedError', /"fs" capability was not granted/],
  ])('ends a guest that %s with a clear error', async (_attack, source, name, message) => {
    const result = failure(await run(source));
    expect(result.name).toBe(name);
    expect(result.message).toMatch(message);
  });

  it('interrupts a guest that loops forever once its CPU budget is spent', async () => {
    const result = failure(await run('export default async function run() { for (;;) {} }', { limits: { cpuMs: 300 } }));
    expect(result).toMatchObject({ name: 'SandboxTimeoutError', timedOut: true });
    expect(result.message).toContain('300 ms of CPU time');
  });

  it('ends a guest that allocates without bound at its memory limit', async () => {
    const result = failure(
      await run('export default async function run() { const kept = []; for (;;) kept.push("x".repeat(65536) + kept.length); }', {
        limits: { memoryBytes: 4 * 1024 * 1024, cpuMs: 5_000 },
      }),
    );
    expect(result).toMatchObject({ name: 'SandboxMemoryError', memoryExceeded: true });
  });

  it('refuses a single allocation beyond the memory limit', async () => {
    const result = failure(await run('export default async function run() { return new Array(5e7).fill(0).length; }', { limits: { memoryBytes: 4 * 1024 * 1024 } }));
    expect(result).toMatchObject({ name: 'SandboxMemoryError', memoryExceeded: true });
  });

  it('reports at once a guest that awaits a promise nothing can resolve', async () => {
    const result = failure(await run('export default async function run() { await new Promise(() => {}); return 1; }'));
    expect(result.name).toBe('SandboxStuckError');
    expect(result.message).toContain('can never settle');
  });

  it('reports a module whose top-level await can never finish', async () => {
    const result = failure(await run('await new Promise(() => {});\nexport default async function run() { return 1; }'));
    expect(result.name).toBe('SandboxStuckError');
  });

  it('ends a guest whose pending promise was left unsettled by an interrupt', async () => {
    const result = failure(await run('export default async function run() { return new Promise(() => { for (;;) {} }); }', { limits: { cpuMs: 300 } }));
    expect(result).toMatchObject({ name: 'SandboxTimeoutError', timedOut: true });
  });

  it('terminates the worker at the wall deadline even when the CPU budget would allow more', async () => {
    const result = failure(await run('export default async function run() { for (;;) {} }', { limits: { cpuMs: 60_000, wallMs: 1_000 } }));
    expect(result).toMatchObject({ name: 'SandboxTimeoutError', timedOut: true });
    expect(result.message).toContain('1000 ms (limits.wallMs)');
  });

  it('turns deep recursion into a guest error', async () => {
    const result = failure(await run('export default async function run() { const dive = (depth) => dive(depth + 1) + 1; return dive(0); }'));
    expect(result.message).toMatch(/stack overflow/);
  });

  it('refuses results that are not JSON data', async () => {
    expect(failure(await run('export default async function run() { return () => 1; }')).name).toBe('SandboxOutputError');
    expect(failure(await run('export default async function run() {}')).name).toBe('SandboxOutputError');
  });

  it('names a module that is not a tool', async () => {
    expect(failure(await run('export const meta = {};'))).toMatchObject({ name: 'SandboxModuleError', message: expect.stringContaining('default export') });
    expect(failure(await run('export default async function run() { return 1 +; }'))).toMatchObject({ name: 'SyntaxError', message: expect.stringContaining('did not load') });
  });

  it('passes guest errors through with their name, message and stack', async () => {
    const result = await run("export default async function run() { throw new TypeError('bad input'); }");
    expect(result).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'bad input', stack: expect.stringContaining('tool.js') } });
  });

  it('keeps at most 200 log lines and says how many were dropped', async () => {
    const result = await run("export default async function run(input, forge) { for (let i = 0; i < 250; i++) forge.log('line', i); return 'done'; }", { capabilities: ['log'] });
    expect(result.logs).toHaveLength(201);
    expect(result.logs[200]).toContain('50 more log lines dropped');
  });

  it('fails before starting when a grant or a limit cannot be honoured', async () => {
    await expect(run('export default async function run() { return 1; }', { capabilities: ['fetch'] })).rejects.toThrow(SandboxSetupError);
    await expect(run('export default async function run() { return 1; }', { limits: { cpuMs: 0 } })).rejects.toThrow(SandboxSetupError);
    await expect(runInSandbox({ source: '', input: null, capabilities: ['network' as 'fetch'] })).rejects.toThrow(/Unknown capabilities: network/);
  });
});
