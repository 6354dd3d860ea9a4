import path from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ForgeEvent } from '../src/core/index.js';
import { ReplaySession } from '../src/cli/tui/index.js';
import { ReplayApp } from '../src/cli/tui/replay-view.js';
import { readRunLog } from '../src/runs/run-log/index.js';

/** Rendering waits are bounded generously: Ink is slow on a loaded 2-core machine, and nothing here measures speed. */
const WAIT = { timeout: 10_000 };

const fixtures = path.resolve(import.meta.dirname, 'fixtures/runs');
async function recordedRun(name: string): Promise<ForgeEvent[]> {
  const { events, error } = await readRunLog(path.join(fixtures, name));
  if (error !== undefined) throw error;
  return events;
}
const gapAfter = (events: readonly ForgeEvent[], index: number) => Date.parse(events[index + 1]?.ts ?? '') - Date.parse(events[index]?.ts ?? '');

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('ReplaySession', () => {
  it('delivers events at the recorded gaps divided by the speed', async () => {
    vi.useFakeTimers();
    const events = await recordedRun('plain-agent-run.jsonl');
    const session = new ReplaySession(events, { speed: 2 });
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.snapshot().delivered).toBe(1);
    // Timers have millisecond resolution: the 1 ms gap halved still takes 1 ms.
    await vi.advanceTimersByTimeAsync(Math.ceil(gapAfter(events, 0) / 2));
    expect(session.snapshot().delivered).toBe(2);
    // The model call took 1235 ms when recorded: at 2× it arrives after 617.5 ms, not before.
    expect(gapAfter(events, 1)).toBe(1235);
    await vi.advanceTimersByTimeAsync(617);
    expect(session.snapshot().delivered).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    // The tool call was recorded 1 ms after the model call returned, so at 2× it is due in the same
    // millisecond: both arrive in one batch (one redraw).
    expect(gapAfter(events, 2)).toBe(1);
    expect(session.snapshot().delivered).toBe(4);
    expect(session.snapshot().state.totals.modelCalls).toBe(1);
    expect(session.snapshot().state.stream.at(-1)?.type).toBe('tool-call-start');
    session.dispose();
  });

  it('caps long gaps so an idle stretch does not stall the replay', async () => {
    vi.useFakeTimers();
    const events = await recordedRun('convergence-run.jsonl');
    const session = new ReplaySession(events, { speed: 1, maximumGapMs: 50 });
    session.start();
    await vi.advanceTimersByTimeAsync(events.length * 50);
    expect(session.snapshot()).toMatchObject({ delivered: events.length, total: events.length, finished: true });
    expect(session.snapshot().state.end?.halt_reason).toBe('converged');
  });

  it('holds still while paused, steps one event at a time, and resumes', async () => {
    vi.useFakeTimers();
    const events = await recordedRun('plain-agent-run.jsonl');
    const session = new ReplaySession(events, { speed: 1, startPaused: true });
    session.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(session.snapshot()).toMatchObject({ delivered: 0, paused: true });
    session.step();
    session.step();
    expect(session.snapshot().delivered).toBe(2);
    const pausedAt = session.replayTime();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(session.snapshot().delivered).toBe(2);
    expect(session.replayTime()).toBe(pausedAt);
    session.togglePause();
    expect(session.snapshot().paused).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    // The replay clock runs between events, so a spinner for the call in flight counts up.
    expect(session.replayTime()).toBe(pausedAt + 1000);
    expect(session.snapshot().delivered).toBe(2);
    await vi.advanceTimersByTimeAsync(gapAfter(events, 1) - 1000);
    expect(session.snapshot().delivered).toBe(3);
    session.dispose();
  });

  it('rejects a speed that is not positive', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    expect(() => new ReplaySession(events, { speed: 0 })).toThrow(RangeError);
    expect(() => new ReplaySession(events, { speed: Number.NaN })).toThrow(RangeError);
  });
});

describe('ReplayApp', () => {
  it('steps with s and →, pauses and plays with space, and shows where it is', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const session = new ReplaySession(events, { speed: 1000, startPaused: true });
    const { lastFrame, stdin } = render(<ReplayApp session={session} interactive />);
    const statusRow = () => (lastFrame() ?? '').split('\n').at(-1) ?? '';
    await vi.waitFor(() => expect(statusRow()).toBe('⏸ paused · replay 0/15 events at 1000× · space pause/play · s or → step · ↑↓ scroll · q quit'), WAIT);
    stdin.write('s');
    await vi.waitFor(() => expect(statusRow()).toContain('replay 1/15 events'), WAIT);
    expect(lastFrame()).toContain('forge run-plain-0001');
    // Keys typed faster than a frame arrive as one chunk; every one counts.
    stdin.write('ss');
    await vi.waitFor(() => expect(statusRow()).toContain('replay 3/15 events'), WAIT);
    stdin.write('\u001b[C');
    await vi.waitFor(() => expect(statusRow()).toContain('replay 4/15 events'), WAIT);
    expect(lastFrame()).toContain('web_search {"query":"Node.js LTS end of life schedule"}');
    stdin.write(' ');
    await vi.waitFor(() => expect(statusRow()).toBe('■ finished · replay 15/15 events at 1000× · ↑↓ scroll · q quit'), WAIT);
    expect(lastFrame()).toContain('✓ completed (final_answer)');
  });

  it('after the last good event of a broken log, reports the bad line', async () => {
    const { events, error } = await readRunLog(path.join(fixtures, 'truncated-run.jsonl'));
    const session = new ReplaySession(events, { speed: 1000 });
    const { lastFrame } = render(<ReplayApp session={session} interactive={false} error={error} />);
    await vi.waitFor(() => expect(lastFrame()).toContain('■ stopped early · replay 8/8 events'), WAIT);
    const lastRow = (lastFrame() ?? '').split('\n').at(-1);
    expect(lastRow).toMatch(/^run log error: .*truncated-run\.jsonl:9: truncated/);
  });
});
