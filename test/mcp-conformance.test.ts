import { execFile } from 'node:child_process';
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchUserHome } from './support/built-cli.js';

const run = promisify(execFile);
const conformanceCli = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const clientEntry = fileURLToPath(new URL('./fixtures/mcp/conformance-client.ts', import.meta.url));

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
}

// The official conformance suite's client scenarios for initialization, tool calls and SSE handling,
// run against Forge's client stack (test/fixtures/mcp/conformance-client.ts). The suite starts each
// scenario's server on localhost, launches the client with its URL, and grades what it saw on the wire.
describe('MCP conformance suite, client scenarios', () => {
  let output: string;

  beforeAll(async () => {
    output = await mkdtemp(join(tmpdir(), 'forge-conformance-'));
  });

  afterAll(async () => {
    await rm(output, { recursive: true, force: true });
  });

  it.each([
    ['initialize', ['mcp-client-initialization']],
    ['tools_call', ['tool-add-numbers']],
    ['sse-retry', ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id']],
  ])('passes %s', async (scenario, expectedChecks) => {
    const folder = join(output, scenario);
    const result = await run(process.execPath, [conformanceCli, 'client', '--command', `"${process.execPath}" --import tsx "${clientEntry}"`, '--scenario', scenario, '--timeout', '20000', '-o', folder], {
      timeout: 45_000,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scratchUserHome() },
    }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '', failed: true }));

    const checks = await readChecks(folder);
    expect(checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING'), result.stdout).toEqual([]);
    expect(checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id).sort()).toEqual([...expectedChecks].sort());
    expect('failed' in result, result.stdout).toBe(false);
  }, 60_000);
});

async function readChecks(folder: string): Promise<Check[]> {
  const [run] = await readdir(folder);
  if (run === undefined) throw new Error(`The conformance suite wrote no results to ${folder}.`);
  return JSON.parse(await readFile(join(folder, run, 'checks.json'), 'utf8')) as Check[];
}
