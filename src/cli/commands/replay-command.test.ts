import path from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../core/index.js';
import { readRunLog } from '../../runs/run-log/index.js';
import { formatEventLine } from '../event-line/index.js';
import { registerReplayCommand } from './replay-command.js';

const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures/runs');
const fixture = (name: string) => path.join(fixtures, name);

interface Outcome {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | undefined;
}

/**
 * Runs `forge replay …` in-process. Under the test runner stdout is not a terminal, so without `--json`
 * the command prints the plain trace, exactly as it does when piped.
 */
async function replay(...args: string[]): Promise<Outcome> {
  const program = new Command().name('forge').exitOverride();
  registerReplayCommand(program);
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['node', 'forge', 'replay', ...args]);
  } finally {
    vi.restoreAllMocks();
  }
  const exitCode = typeof process.exitCode === 'number' ? process.exitCode : undefined;
  process.exitCode = undefined;
  return { stdout, stderr, exitCode };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('forge replay', () => {
  it('prints one trace line per event when stdout is not a terminal', async () => {
    const { events } = await readRunLog(fixture('plain-agent-run.jsonl'));
    const outcome = await replay(fixture('plain-agent-run.jsonl'));
    expect(outcome.stdout).toBe(events.map((event) => `${formatEventLine(event)}\n`).join(''));
    expect(outcome.stderr).toBe('');
    expect(outcome.exitCode).toBe(0);
  });

  it('prints the same trace with --no-tui', async () => {
    const outcome = await replay(fixture('skill-replay-run.jsonl'), '--no-tui');
    const lines = outcome.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    expect(lines[5]).toContain('skill-step          release-notes step 1 -> read_page');
    expect(lines[5]).toContain('url <- heuristic, 8 candidates');
  });

  it('replays a truncated log up to the bad line, then names the file and line and fails', async () => {
    const outcome = await replay(fixture('truncated-run.jsonl'), '--no-tui');
    expect(outcome.stdout.trimEnd().split('\n')).toHaveLength(8);
    expect(outcome.stderr).toContain(`${fixture('truncated-run.jsonl')}:9: truncated`);
    expect(outcome.exitCode).toBe(1);
  });

  it('with --json prints the totals, and the error of a malformed log', async () => {
    const good = await replay(fixture('convergence-run.jsonl'), '--json');
    expect(JSON.parse(good.stdout)).toMatchObject({
      event_count: 77,
      run_id: 'run-converge-0002',
      status: 'completed',
      halt_reason: 'converged',
      llm_calls: 14,
      tokens: { input: 31277, output: 3949 },
    });
    expect(good.exitCode).toBe(0);

    const bad = await replay(fixture('invalid-event-run.jsonl'), '--json');
    const report = JSON.parse(bad.stdout) as { event_count: number; error: { name: string; message: string } };
    expect(report.event_count).toBe(7);
    expect(report.error.name).toBe('RunLogError');
    expect(report.error.message).toContain('invalid-event-run.jsonl:8:');
    expect(report.error.message).toContain('tokens.input');
    expect(bad.exitCode).toBe(1);
  });

  it('reports a missing file with a hint and fails', async () => {
    const outcome = await replay(fixture('no-such-run.jsonl'));
    expect(outcome.stderr).toContain('no-such-run.jsonl');
    expect(outcome.stderr).toContain('hint:');
    expect(outcome.exitCode).toBe(1);
  });

  it('refuses a speed that is not a positive number', async () => {
    await expect(replay(fixture('plain-agent-run.jsonl'), '--speed', '0')).rejects.toBeInstanceOf(ConfigurationError);
    await expect(replay(fixture('plain-agent-run.jsonl'), '--speed', 'fast')).rejects.toThrow('--speed: must be a positive number, got "fast"');
  });
});
