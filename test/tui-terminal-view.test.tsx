import { EventEmitter } from 'node:events';
import path from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventOf, ForgeEvent, LiveEvent } from '../src/core/index.js';
import { ReplaySession, RunView, startLiveView, viewStateFromEvents } from '../src/cli/tui/index.js';
import type { ViewEvent } from '../src/cli/tui/index.js';
import { ReplayApp } from '../src/cli/tui/replay-view.js';
import { InProcessEventBus } from '../src/events/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';

/** Rendering waits are bounded generously: Ink is slow on a loaded machine, and nothing here measures speed. */
const WAIT = { timeout: 10_000 };

const fixtures = path.resolve(import.meta.dirname, 'fixtures/runs');
async function recordedRun(name: string): Promise<ForgeEvent[]> {
  const { events, error } = await readRunLog(path.join(fixtures, name));
  if (error !== undefined) throw error;
  return events;
}

function frameOf(events: readonly ViewEvent[], { width = 100, height = 40, answerPrintedBelow = false } = {}): string {
  const state = viewStateFromEvents(events);
  const { lastFrame } = render(<RunView state={state} now={state.lastEventAtMs ?? 0} width={width} height={height} answerPrintedBelow={answerPrintedBelow} notices={[{ text: 'status', tone: 'info' }]} />);
  return lastFrame() ?? '';
}

/** The frame's text with borders and padding removed, rows joined by spaces. */
function readableText(frame: string): string {
  return frame
    .split('\n')
    .map((line) => line.replace(/[│╭╮╰╯─]/g, ' ').trim())
    .join(' ')
    .replace(/\s+/g, ' ');
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

function delta(runId: string, iteration: number, text: string): LiveEvent {
  return { ts: '2025-06-01T09:00:04.000Z', run_id: runId, type: 'assistant-text-delta', iteration, delta: text };
}

afterEach(() => cleanup());

describe('the terminal view', () => {
  it('draws no Plan panel for a run without a plan, and gives its rows to the stream', async () => {
    const plain = await recordedRun('plain-agent-run.jsonl');
    const frame = frameOf(plain);
    expect(frame).not.toContain('Plan');
    expect(frame).not.toContain('no plan yet');
    // The Toolbox spans the whole width: one panel on its title row.
    const toolboxRow = frame.split('\n').find((row) => row.includes('Toolbox'))!;
    expect(toolboxRow).toMatch(/^│ Toolbox .*│$/);
    expect(occurrences(toolboxRow, '│')).toBe(2);

    const converge = await recordedRun('convergence-run.jsonl');
    expect(frameOf(converge)).toContain('Plan 4/4 done');
  });

  it('at 80×24 never crops a failed verification: each one on screen is framed whole, or shows only its headline', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const first = events.findIndex((event) => event.type === 'verification-failed');
    let wholeFrames = 0;
    for (let count = first + 1; count <= events.length; count += 1) {
      // The replay draws 23 rows in a 24-row terminal, with its status notice.
      const rows = frameOf(events.slice(0, count), { width: 80, height: 23 }).split('\n');
      rows.forEach((row, index) => {
        if (!row.includes('✗ verification failed')) return;
        if (row.includes('↑ to see it whole')) return;
        wholeFrames += 1;
        expect(rows[index - 1], `frame after ${count} events`).toMatch(/^│ ╭─+╮ *│$/);
        const bottom = rows.findIndex((candidate, below) => below > index && /^│ ╰─+╯ *│$/.test(candidate));
        expect(bottom, `frame after ${count} events`).toBeGreaterThan(index);
        expect(rows.slice(index, bottom).join('\n')).toMatch(/1 of 4 cases failed \(sandbox exit \d+, \d+ ms\)/);
      });
      // Nothing framed is drawn without its headline.
      const tops = rows.filter((row) => /^│ ╭/.test(row)).length;
      expect(tops, `frame after ${count} events`).toBe(rows.filter((row) => /^│ ╰/.test(row)).length);
    }
    expect(wholeFrames).toBeGreaterThan(0);
  });

  it('shows the answer once: in the text it came from, not again at the end, or only a pointer when the command prints it below', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const answer = (events.at(-1) as EventOf<'run-end'>).answer!;
    const shown = readableText(frameOf(events));
    expect(occurrences(shown, answer.slice(0, 40))).toBe(1);
    expect(shown).toContain('answer iteration 3,');

    const below = readableText(frameOf(events, { answerPrintedBelow: true }));
    expect(occurrences(below, answer.slice(0, 40))).toBe(0);
    expect(below).toContain('printed in full below');
  });

  it("streams the model's text as it arrives, then shows it once the call has ended", async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const textIndex = events.findIndex((event) => event.type === 'assistant-text');
    const beforeText = events.slice(0, textIndex - 1);
    const streaming = [...beforeText, delta('run-plain-0001', 3, 'Node.js 22 (codename '), delta('run-plain-0001', 3, 'Jod) is the latest')];
    const live = readableText(frameOf(streaming));
    expect(live).toContain('text iteration 3, streaming…');
    expect(live).toContain('Node.js 22 (codename Jod) is the latest▍');
    // Live events are not events of the run: the count stays that of the log.
    expect(live).toContain(`Events ${beforeText.length} events`);

    const ended = readableText(frameOf([...streaming, ...events.slice(textIndex - 1)]));
    expect(ended).not.toContain('streaming…');
    expect(occurrences(ended, 'Node.js 22 (codename Jod) is the latest')).toBe(1);
  });

  it("shows a sandboxed tool's forge.log lines in the stream", async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const log: EventOf<'tool-log'> = { ts: '2025-06-01T09:00:01.640Z', run_id: 'run-plain-0001', seq: 99, type: 'tool-log', call_id: 'call_1', tool: 'word_count', lines: ['counted 3 words', 'longest: quick'] };
    const text = readableText(frameOf([...events.slice(0, 5), log]));
    expect(text).toContain('log word_count logged 2 lines (call_1)');
    expect(text).toContain('counted 3 words longest: quick');
  });

  it('scrolls the replayed stream with ↑ and PgUp, stays on its entries, and follows the newest again with End', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const session = new ReplaySession(events, { speed: 1000, startPaused: true });
    const { lastFrame, stdin } = render(<ReplayApp session={session} interactive />);
    const frame = () => lastFrame() ?? '';
    await vi.waitFor(() => expect(frame()).toContain('⏸ paused'), WAIT);
    for (let step = 0; step < 40; step += 1) stdin.write('s');
    await vi.waitFor(() => expect(frame()).toContain('replay 40/77 events'), WAIT);
    stdin.write('\u001b[A');
    await vi.waitFor(() => expect(frame()).toContain('1 newer below'), WAIT);
    stdin.write('\u001b[5~');
    await vi.waitFor(() => expect(frame()).toContain('11 newer below'), WAIT);
    // New events arrive while scrolled back: the screen keeps its place, so more are below.
    stdin.write('ss');
    await vi.waitFor(() => expect(frame()).toContain('13 newer below'), WAIT);
    stdin.write('\u001b[F');
    await vi.waitFor(() => expect(frame()).not.toContain('newer below'), WAIT);
    expect(frame()).toContain('replay 42/77 events');
  });
});

/** A terminal that records what is written to it. */
class RecordingTerminal extends EventEmitter {
  columns = 100;
  rows = 40;
  readonly isTTY = true;
  readonly writes: string[] = [];
  write = (chunk: string): boolean => {
    this.writes.push(chunk);
    return true;
  };
}

// eslint-disable-next-line no-control-regex -- terminal escape sequences are control characters by definition
const ansiSequence = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

describe('the live view', () => {
  it('draws text deltas from the bus as they come, before the model call ends', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const terminal = new RecordingTerminal();
    const bus = new InProcessEventBus();
    const view = startLiveView(bus, { stdout: terminal as unknown as NodeJS.WriteStream, refreshIntervalMs: 20 });
    const lastFrame = () => (terminal.writes.map((text) => text.replace(ansiSequence, '')).filter((text) => text.includes('╭')).at(-1) ?? '');
    const textIndex = events.findIndex((event) => event.type === 'assistant-text');
    for (const event of events.slice(0, textIndex - 1)) bus.publish(event);
    bus.publishLive(delta('run-plain-0001', 3, 'Node.js 22 is '));
    await vi.waitFor(() => expect(lastFrame()).toContain('Node.js 22 is ▍'), WAIT);
    bus.publishLive(delta('run-plain-0001', 3, 'the latest Active LTS line.'));
    await vi.waitFor(() => expect(lastFrame()).toContain('Node.js 22 is the latest Active LTS line.▍'), WAIT);
    for (const event of events.slice(textIndex - 1)) bus.publish(event);
    await view.stop();
    expect(lastFrame()).not.toContain('streaming…');
    expect(lastFrame()).toContain('✓ completed (final_answer)');
  });
});
