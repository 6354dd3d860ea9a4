import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/built-cli.js';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/runs');

/** A run log builder: events of one run with dense seqs. */
function runLog(runId: string) {
  let seq = 0;
  const lines: string[] = [];
  const builder = {
    add(type: string, body: Record<string, unknown>) {
      lines.push(JSON.stringify({ ts: `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`, run_id: runId, seq: seq++, type, ...body }));
      return builder;
    },
    text: () => `${lines.join('\n')}\n`,
  };
  return builder;
}

const usage = { tokens: { input: 10, output: 2 }, cost_usd: 0.001 };
const modelCall = (iteration: number, purpose: string) => ({ model: 'openai:gpt-4.1-mini', iteration, purpose, ...usage, latency_ms: 5, input_hash: `sha256:${iteration}`, finish_reason: 'tool-calls', tool_calls: 1 });
const synthesisEnd = (tool: string, status: 'promoted' | 'failed', revisions: number) => ({ tool, status, revisions, llm_calls: 2, ...usage, flagged: false, failures: [] });

/**
 * One converge run that drafts two tools: `word_count` fails one verification, then is promoted and
 * used twice; `slugify` is promoted at once and used once. Catch rate 1/2, reuse ratio 3/2.
 */
function synthesisRunLog(): string {
  return runLog('run-synth')
    .add('run-start', { task: 'count and slug', model: 'openai:gpt-4.1-mini', max_iterations: 5, conversation_id: null, tools: ['request_tool'] })
    .add('model-call', modelCall(1, 'agent-step'))
    .add('verification-failed', { tool: 'word_count', revision: 0, output: 'FAIL word_count > counts words' })
    .add('synthesis-end', synthesisEnd('word_count', 'promoted', 1))
    .add('synthesis-end', synthesisEnd('slugify', 'promoted', 0))
    .add('tool-result', { call_id: 'c1', tool: 'word_count', output: '3', truncated: false, untrusted: false, duration_ms: 1 })
    .add('tool-result', { call_id: 'c2', tool: 'word_count', output: '4', truncated: false, untrusted: false, duration_ms: 1 })
    .add('tool-result', { call_id: 'c3', tool: 'slugify', output: 'a-b', truncated: false, untrusted: false, duration_ms: 1 })
    .add('run-end', { status: 'completed', halt_reason: 'final_answer', answer: 'done', error: null, llm_calls: 5, tokens: { input: 50, output: 10 }, cost_usd: 0.005, duration_ms: 9 })
    .text();
}

describe('forge replay and forge stats at the edges of a run log', () => {
  let folder: string;
  let env: Record<string, string>;
  const file = (name: string) => path.join(folder, name);

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'forge-replay-edges-'));
    env = { FORGE_HOME: path.join(folder, 'home'), HOME: folder };
    const plain = await readFile(path.join(fixtures, 'plain-agent-run.jsonl'), 'utf8');
    // Cut between two whole lines: every line is valid, the run simply never ended.
    await writeFile(file('cut.jsonl'), `${plain.split('\n').slice(0, 6).join('\n')}\n`);
    await writeFile(file('empty.jsonl'), '');
    const lines = plain.split('\n');
    lines[2] = '{"ts": "2025-06-01T09:00:01.000Z", not json';
    await writeFile(file('corrupt-line-3.jsonl'), lines.join('\n'));
    await writeFile(file('garbage.jsonl'), 'this is not a run log\n');
    await writeFile(file('synthesis.jsonl'), synthesisRunLog());
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('replays a log without run-end up to its last event, then names the file and line and exits 1', async () => {
    const trace = await runCli(['replay', file('cut.jsonl'), '--no-tui'], env);
    expect(trace.stdout.trimEnd().split('\n')).toHaveLength(6);
    expect(trace.stderr).toContain(`forge: the replay stopped early: ${file('cut.jsonl')}:6: ends with tool-result, without run-end: run run-plain-0001 was cut off`);
    expect(trace.code).toBe(1);

    const json = await runCli(['replay', file('cut.jsonl'), '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ event_count: 6, status: null, error: { name: 'RunLogError', message: expect.stringContaining('cut.jsonl:6: ends with tool-result, without run-end') } });
    expect(json.code).toBe(1);
  });

  it('replays an empty log as nothing and says so, exiting 1', async () => {
    const trace = await runCli(['replay', file('empty.jsonl'), '--no-tui'], env);
    expect(trace.stdout).toBe('');
    expect(trace.stderr).toContain(`${file('empty.jsonl')}:0: holds no event`);
    expect(trace.code).toBe(1);
  });

  it('stops the plain trace on SIGINT (Ctrl-C) with exit code 130', async () => {
    const long = runLog('run-long').add('run-start', { task: 'talk a lot', model: 'openai:gpt-4.1-mini', max_iterations: 5, conversation_id: null, tools: [] });
    for (let index = 0; index < 60_000; index += 1) long.add('assistant-text', { iteration: 1, text: `line ${index}` });
    await writeFile(file('long.jsonl'), long.text());
    const interrupted = await runCli(['replay', file('long.jsonl'), '--no-tui'], env, {
      onSpawn: (child) => child.stdout?.once('data', () => child.kill('SIGINT')),
    });
    expect(interrupted.signal).toBeNull();
    expect(interrupted.code).toBe(130);
    expect(interrupted.stdout.split('\n').length).toBeLessThan(60_001);
  });

  it('a whole run still replays with exit 0', async () => {
    const trace = await runCli(['replay', path.join(fixtures, 'plain-agent-run.jsonl'), '--no-tui'], env);
    expect(trace.stderr).toBe('');
    expect(trace.code).toBe(0);
  });

  it('forge stats on an unreadable log names the file and the line, and reports no zeros for a log it could not read at all', async () => {
    const corrupt = await runCli(['stats', file('corrupt-line-3.jsonl')], env);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain(`forge: the run log stops early: ${file('corrupt-line-3.jsonl')}:3: not valid JSON`);
    // The two events before the bad line are still counted.
    expect(corrupt.stdout).toContain('run        run-plain-0001');

    const garbage = await runCli(['stats', file('garbage.jsonl')], env);
    expect(garbage.code).toBe(1);
    expect(garbage.stdout).toBe('');
    expect(garbage.stderr).toContain(`forge: cannot read the run log: ${file('garbage.jsonl')}:1: not valid JSON`);

    const json = await runCli(['stats', file('garbage.jsonl'), '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { name: 'RunLogError', message: expect.stringContaining('garbage.jsonl:1:') } });
    expect(json.code).toBe(1);
  });

  it("shows one run's synthesis figures, catch rate and reuse ratio, as --all counts them", async () => {
    const single = await runCli(['stats', file('synthesis.jsonl'), '--json'], env);
    const all = await runCli(['stats', '--all', file('synthesis.jsonl'), '--json'], env);
    expect(single.code, single.stderr).toBe(0);
    const figures = (JSON.parse(single.stdout) as { synthesis: Record<string, unknown> }).synthesis;
    expect(figures).toEqual({ drafted: 2, promoted: 2, failed: 0, caught: 1, catch_rate: 0.5, tool_uses: 3, reuse_ratio: 1.5 });
    const { per_tool: _perTool, ...allFigures } = (JSON.parse(all.stdout) as { synthesis: Record<string, unknown> }).synthesis;
    expect(figures).toEqual(allFigures);

    const text = await runCli(['stats', file('synthesis.jsonl')], env);
    expect(text.stdout).toContain('synthesis  2 drafted, 2 promoted, 0 failed; catch rate 0.50 (1 draft failed a verification before the verdict); reuse ratio 1.50 (3 uses)');
    // Plurals follow the count: one revision, one failed verification, no revisions.
    expect(text.stdout).toContain('synthesized word_count: promoted after 1 revision (1 failed verification), 2 calls,');
    expect(text.stdout).toContain('synthesized slugify: promoted after 0 revisions (0 failed verifications), 2 calls,');
  });
});
