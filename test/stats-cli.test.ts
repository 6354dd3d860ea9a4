import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/store/index.js';
import { FORGE_BIN, runCli, scratchUserHome, type CliResult } from './support/built-cli.js';
import { fillSyntheticRuns, type SyntheticRunSet } from './support/synthetic-runs.js';

/** `forge stats` from the built binary: stored runs added up by the store, explicit run logs read a few at a time. */
describe('forge stats', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'forge-stats-cli-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads 1,500 run logs given on the command line under a 256 file-handle limit (all at once it failed with EMFILE)', async () => {
    const logs = path.join(folder, 'copied-logs');
    await mkdir(logs);
    const names = Array.from({ length: 1_500 }, (_, index) => `log-${String(index).padStart(4, '0')}.jsonl`);
    for (const [index, name] of names.entries()) await writeFile(path.join(logs, name), smallRunLog(`copied${index}`, index % 3 === 0 ? 'cap' : 'final_answer'));

    const result = await cliUnderFileLimit(256, ['stats', '--json', ...names], { FORGE_HOME: path.join(folder, 'unused-home') }, logs);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const stats = JSON.parse(result.stdout) as { runs: number; files: string[]; errors: unknown[]; halts_by_reason: Record<string, number>; llm_calls: number; tool_calls: number };
    expect(stats).toMatchObject({ runs: 1_500, errors: [], halts_by_reason: { cap: 500, final_answer: 1_000 }, llm_calls: 1_500, tool_calls: 1_500 });
    expect(stats.files).toEqual(names);
  }, 60_000);

  describe('over the store', () => {
    let home: string;
    let written: SyntheticRunSet;
    const env = () => ({ FORGE_HOME: home });

    beforeAll(async () => {
      home = path.join(folder, 'home');
      // Owned by this process, so the one still running is not taken for interrupted.
      written = await fillSyntheticRuns(home, 120, { unfinished: 1 });
    });

    it('adds up every stored run to the figures its run logs give, and shows the newest run as it stands', async () => {
      const stored = await runCli(['stats', '--all', '--json'], env());
      const read = await runCli(['stats', '--all', '--json', ...written.logFiles], env());

      expect(stored.code, stored.stderr).toBe(0);
      expect(read.code, read.stderr).toBe(0);
      const fromStore = JSON.parse(stored.stdout) as Record<string, unknown>;
      const fromLogs = JSON.parse(read.stdout) as Record<string, unknown>;
      expect(Object.keys(fromStore)).toEqual(Object.keys(fromLogs));
      expect(fromStore).toMatchObject({ files: written.logFiles, runs: 120, errors: [], halts_by_reason: fromLogs['halts_by_reason'], synthesis: { drafted: 5 } });
      for (const figure of ['llm_calls', 'tokens', 'tool_calls', 'tool_errors']) expect(fromStore[figure]).toEqual(fromLogs[figure]);

      const newest = await runCli(['stats', '--json'], env());
      expect(newest.code, newest.stderr).toBe(0);
      expect(JSON.parse(newest.stdout)).toMatchObject({ file: written.logFiles.at(-1), run_id: 'run000119', status: 'running', halt_reason: null });
      const text = await runCli(['stats'], env());
      expect(text.stdout).toMatch(/^status +running$/m);
    });

    it('shows a run whose process died as interrupted, ended like any command that opens FORGE_HOME ends it', async () => {
      const store = await openStore({ url: path.join(home, 'forge.db') });
      try {
        await store.runs.create({ id: 'orphan-run', task: 'left by a dead process', model: 'openai:gpt-4.1-mini', conversationId: null, owner: { pid: await deadPid(), host: hostname() } });
      } finally {
        await store.close();
      }

      const result = await runCli(['stats', '--json'], env());

      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ run_id: 'orphan-run', status: 'failed', halt_reason: 'interrupted', file: null, llm_calls: 0 });
      const all = JSON.parse((await runCli(['stats', '--all', '--json'], env())).stdout) as { runs: number; halts_by_reason: Record<string, number> };
      expect(all.runs).toBe(121);
      expect(all.halts_by_reason['unfinished']).toBe(1);
    });
  });

  it('says how to get a run when the store holds none', async () => {
    const empty = { FORGE_HOME: path.join(folder, 'empty-home') };

    const json = await runCli(['stats', '--all', '--json'], empty);
    const text = await runCli(['stats'], empty);

    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: { name: 'NotFoundError', message: expect.stringContaining('No stored run'), hint: 'Run `forge run "<task>"` first, or pass a run log file.' } });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('forge run "<task>"');
    expect(text.stderr).not.toMatch(/\n\s+at /);
  });
});

/** A complete little run: one model call, one tool call, the given halt. */
function smallRunLog(runId: string, haltReason: 'cap' | 'final_answer'): string {
  let seq = 0;
  const event = (type: string, body: Record<string, unknown>) => JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', run_id: runId, seq: seq++, type, ...body });
  return `${[
    event('run-start', { task: 'copied run', model: 'openai:gpt-4.1-mini', max_iterations: 5, conversation_id: null, tools: ['web_search'] }),
    event('model-call', { model: 'openai:gpt-4.1-mini', iteration: 1, purpose: 'agent', tokens: { input: 10, output: 2 }, cost_usd: 0.25, latency_ms: 5, input_hash: 'sha256:1', finish_reason: 'tool-calls', tool_calls: 1 }),
    event('tool-result', { call_id: 'call_1', tool: 'web_search', output: 'ok', truncated: false, untrusted: true, duration_ms: 1 }),
    event('run-end', { status: haltReason === 'cap' ? 'failed' : 'completed', halt_reason: haltReason, answer: null, error: null, llm_calls: 1, tokens: { input: 10, output: 2 }, cost_usd: 0.25, duration_ms: 10 }),
  ].join('\n')}\n`;
}

/** `forge …` in `cwd` with at most `limit` open files (the shell's `ulimit -n`), as a user on macOS has 256. */
function cliUnderFileLimit(limit: number, args: readonly string[], env: Record<string, string>, cwd: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `ulimit -n ${limit} && exec "$0" "$@"`, process.execPath, FORGE_BIN, ...args], { cwd, env: { PATH: process.env['PATH'] ?? '', HOME: scratchUserHome(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The pid of a process that has exited. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}
