import path from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf, ForgeEvent } from '../src/core/index.js';
import { RunView, viewStateFromEvents } from '../src/cli/tui/index.js';
import type { Notice } from '../src/cli/tui/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/runs');
async function recordedRun(name: string): Promise<ForgeEvent[]> {
  const { events, error } = await readRunLog(path.join(fixtures, name));
  if (error !== undefined) throw error;
  return events;
}

interface Screen {
  readonly width?: number;
  readonly height?: number;
  /** Milliseconds after the last event that the view's clock shows. */
  readonly later?: number;
  readonly notices?: readonly Notice[];
}

/** The view after the first `count` events, as Ink draws it. */
function frameAfter(events: readonly ForgeEvent[], count: number, { width = 100, height = 40, later = 0, notices }: Screen = {}): string {
  const state = viewStateFromEvents(events.slice(0, count));
  const { lastFrame } = render(
    <RunView state={state} now={(state.lastEventAtMs ?? 0) + later} width={width} height={height} {...(notices === undefined ? {} : { notices })} />,
  );
  return lastFrame() ?? '';
}

/** Position just after the first event matching `predicate`. */
function countThrough(events: readonly ForgeEvent[], predicate: (event: ForgeEvent) => boolean): number {
  const index = events.findIndex(predicate);
  if (index === -1) throw new Error('no such event in the fixture');
  return index + 1;
}

function rowStartingWith(frame: string, text: string): string {
  const row = frame.split('\n').find((line) => line.startsWith(text));
  if (row === undefined) throw new Error(`no row starts with ${JSON.stringify(text)} in:\n${frame}`);
  return row;
}

function rowContaining(frame: string, text: string): string {
  const row = frame.split('\n').find((line) => line.includes(text));
  if (row === undefined) throw new Error(`no row contains ${JSON.stringify(text)} in:\n${frame}`);
  return row;
}

/** The frame's text with borders and padding removed, rows joined by spaces: what a reader can read. */
function readableText(frame: string): string {
  return frame
    .split('\n')
    .map((line) => line.replace(/[│╭╮╰╯─]/g, ' ').trim())
    .join(' ')
    .replace(/\s+/g, ' ');
}

afterEach(() => cleanup());

describe('the run view at chosen points of a convergence run', () => {
  it('shows fetch_json promoted with its use count once the agent has used it twice', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const count = countThrough(events, (event) => event.type === 'toolbox-change' && event.tool === 'fetch_json' && event.uses === 2);
    const frame = frameAfter(events, count);
    expect(rowContaining(frame, 'fetch_json ')).toMatch(/✓ fetch_json\s+promoted\s+2\s+0/);
    expect(rowContaining(frame, 'request_tool')).toMatch(/· request_tool\s+builtin\s+1\s+0/);
    expect(frame).toContain('▶ Find the release API for each project');
    expect(frame).toContain('turn 1: toolbox ✗ plan ✗ streak 0/4');
  });

  it('draws a failed verification as a framed panel holding the real sandbox output', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const count = countThrough(events, (event) => event.type === 'verification-failed');
    const frame = frameAfter(events, count);
    expect(frame).toContain('✗ verification failed: extract_release_date (revision 0)');
    const outputRow = rowContaining(frame, "AssertionError: expected '2025-05-21T14:05:11Z' to equal '2025-05-21'");
    // Inside the stream panel's border and inside the failure's own frame.
    expect(outputRow).toMatch(/^│ │ {3}AssertionError/);
    expect(rowContaining(frame, '1 of 4 cases failed (sandbox exit 1, 38 ms)')).toMatch(/^│ │ /);
    expect(rowContaining(frame, 'extract_release_date  ')).toMatch(/◐ extract_release_date\s+testing\s+0\s+0/);
  });

  it('shows a tool error in full, wrapped rather than cut', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const failure = events.find((event): event is EventOf<'tool-error'> => event.type === 'tool-error');
    const frame = frameAfter(events, countThrough(events, (event) => event.type === 'tool-error'), { width: 80, height: 40 });
    expect(readableText(frame)).toContain(failure?.error.message);
    expect(readableText(frame)).toContain(`(hint: ${failure?.error.hint})`);
  });

  it('at the end keeps the failed tool listed, shows the finished plan, the convergence reading and totals equal to the sums of model calls', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const frame = frameAfter(events, events.length);
    expect(rowContaining(frame, 'extract_release_date')).toMatch(/✗ extract_release_date\s+failed\s+0\s+3/);
    expect(rowContaining(frame, 'fetch_json ')).toMatch(/✓ fetch_json\s+promoted\s+3\s+0/);
    expect(frame).toContain('Toolbox 5 tools, 1 failed');
    expect(frame).toContain('Plan 4/4 done');
    expect(frame).toContain('turn 6: toolbox ✓ plan ✓ streak 1/1');

    const calls = events.filter((event): event is EventOf<'model-call'> => event.type === 'model-call');
    const input = calls.reduce((sum, call) => sum + call.tokens.input, 0);
    const output = calls.reduce((sum, call) => sum + call.tokens.output, 0);
    const dollars = calls.reduce((sum, call) => sum + (call.cost_usd ?? 0), 0);
    const footer = rowStartingWith(frame, 'model calls');
    expect(footer).toContain(`model calls ${calls.length} · tokens ${input.toLocaleString('en-US')} in / ${output.toLocaleString('en-US')} out · cost $${dollars.toFixed(4)}`);
    expect(footer).toContain('elapsed 40.0s');
    expect(frame).toContain('✓ completed (converged)');
  });

  it('fills exactly the size it is given', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    for (const count of [0, 1, 30, events.length]) {
      expect(frameAfter(events, count, { width: 100, height: 40 }).split('\n')).toHaveLength(40);
    }
  });
});

describe('the run view for model calls and skill replays', () => {
  it('shows a spinner with elapsed time while a model call is in flight, and the call with tokens, cost and latency once it returns', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const waiting = frameAfter(events, 2, { later: 2300 });
    expect(rowContaining(waiting, 'thinking')).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] openai:gpt-4\.1-mini iteration 1 thinking 2\.3s$/);
    expect(rowStartingWith(waiting, 'model calls')).toContain('elapsed 2.3s');

    const answered = frameAfter(events, 3);
    expect(answered).not.toContain('thinking');
    expect(rowContaining(answered, '812→46 tok')).toContain('812→46 tok · $0.0004 · 1.2s · openai:gpt-4.1-mini agent');
    expect(rowStartingWith(answered, 'model calls')).toContain('model calls 1 · tokens 812 in / 46 out · cost $0.0004');
  });

  it('shows which strategy resolved each value of each skill step', async () => {
    const events = await recordedRun('skill-replay-run.jsonl');
    const frame = frameAfter(events, events.length, { height: 60 });
    const text = readableText(frame);
    expect(text).toContain('release-notes step 1 -> read_page');
    expect(text).toContain('query <- user_input: "denoland/deno latest release"');
    expect(text).toContain('url <- heuristic, 8 candidates: "https://github.com/denoland/deno/releases/tag/v2.3.5"');
    expect(text).toContain(
      'url <- llm_rescue, 5 candidates: "https://api.github.com/repos/denoland/deno/releases/latest" (heuristic refused: the two best candidates scored 0.61 and 0.58, too close to choose)',
    );
    expect(text).toContain('accept <- default: "application/vnd.github+json"');
    expect(text).toContain('content <- text_passthrough:');
    expect(rowStartingWith(frame, 'model calls')).toContain('model calls 1 · tokens 620 in / 12 out');
  });

  it('shows notices under the footer', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const frame = frameAfter(events, 8, { notices: [{ text: 'run log error: run.jsonl:9: truncated', tone: 'error' }] });
    expect(frame.split('\n').at(-1)).toBe('run log error: run.jsonl:9: truncated');
  });
});

describe('the run view in narrow terminals', () => {
  const width = (line: string) => [...line].length;

  it('at 80 columns keeps every row within the width, whole tool names and the totals on one row', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    for (const count of [countThrough(events, (event) => event.type === 'verification-failed'), events.length]) {
      const frame = frameAfter(events, count, { width: 80, height: 30 });
      const rows = frame.split('\n');
      expect(rows).toHaveLength(30);
      for (const row of rows) expect(width(row)).toBeLessThanOrEqual(80);
      // Side by side still: the toolbox and plan titles share a row.
      expect(rowContaining(frame, 'Toolbox')).toContain('Plan');
      expect(rowContaining(frame, 'extract_release_date')).toMatch(/[◐✗] extract_release_date\s+0\s+\d\s+│/);
      expect(rowStartingWith(frame, 'model calls')).toMatch(/^model calls \d+ · tokens [\d,]+ in \/ [\d,]+ out · cost \$\d+\.\d{4} · elapsed [\d.]+s$/);
    }
  });

  it('stacks the panels below 64 columns and stays within the width', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const frame = frameAfter(events, events.length, { width: 56, height: 40 });
    const rows = frame.split('\n');
    for (const row of rows) expect(width(row)).toBeLessThanOrEqual(56);
    expect(rowContaining(frame, 'Toolbox')).not.toContain('Plan');
    expect(rowContaining(frame, 'extract_release_date')).toMatch(/✗ extract_release_date/);
    expect(frame).toContain('turn 6: toolbox ✓ plan ✓ streak 1/1');
    expect(rowStartingWith(frame, '14 calls')).toMatch(/^14 calls · 31,277\/3,949 tok · \$0\.1456 · 40\.0s$/);
  });
});
