import { EventEmitter } from 'node:events';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { EventBus, ForgeEvent } from '../src/core/index.js';
import { startLiveView } from '../src/cli/tui/index.js';
import { InProcessEventBus } from '../src/events/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';

/** Rendering waits are bounded generously: Ink is slow on a loaded 2-core machine, and nothing here measures speed. */
const WAIT = { timeout: 10_000 };

const fixtures = path.resolve(import.meta.dirname, 'fixtures/runs');
async function recordedRun(name: string): Promise<ForgeEvent[]> {
  const { events, error } = await readRunLog(path.join(fixtures, name));
  if (error !== undefined) throw error;
  return events;
}

/** A terminal that records what is written to it and can be resized. */
class RecordingTerminal extends EventEmitter {
  columns = 100;
  rows = 40;
  readonly isTTY = true;
  readonly writes: string[] = [];
  write = (chunk: string): boolean => {
    this.writes.push(chunk);
    return true;
  };

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }

  /** The last frame drawn, without colours or cursor movement. */
  lastFrame(): string {
    const frames = this.writes.map(stripAnsi).filter((text) => text.includes('╭'));
    return frames.at(-1) ?? '';
  }
}

// eslint-disable-next-line no-control-regex -- terminal escape sequences are control characters by definition
const ansiSequence = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;
function stripAnsi(text: string): string {
  return text.replace(ansiSequence, '');
}

function startOn(terminal: RecordingTerminal, bus: InProcessEventBus) {
  return startLiveView(bus, { stdout: terminal as unknown as NodeJS.WriteStream, refreshIntervalMs: 20 });
}

describe('startLiveView', () => {
  it('never draws inside publish: a producer only appends to a buffer', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const terminal = new RecordingTerminal();
    const bus = new InProcessEventBus();
    const view = startOn(terminal, bus);
    const writesBefore = terminal.writes.length;
    for (const event of events) bus.publish(event);
    expect(terminal.writes.length).toBe(writesBefore);
    await view.stop();
    expect(terminal.lastFrame()).toContain('✓ completed (converged)');
  });

  it('draws buffered events on its own timer while the run goes on', async () => {
    const events = await recordedRun('plain-agent-run.jsonl');
    const terminal = new RecordingTerminal();
    const bus = new InProcessEventBus();
    const view = startOn(terminal, bus);
    try {
      for (const event of events.slice(0, 2)) bus.publish(event);
      await vi.waitFor(() => expect(terminal.lastFrame()).toContain('openai:gpt-4.1-mini iteration 1 thinking'), WAIT);
      for (const event of events.slice(2, 3)) bus.publish(event);
      await vi.waitFor(() => expect(terminal.lastFrame()).toContain('model calls 1 · tokens 812 in / 46 out'), WAIT);
      expect(terminal.lastFrame()).not.toContain('thinking');
    } finally {
      await view.stop();
    }
  });

  it('at stop draws every event received so far, leaves that frame, and stops listening', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const terminal = new RecordingTerminal();
    const bus = new InProcessEventBus();
    let listeners = 0;
    const countingBus: EventBus = {
      publish: (event) => bus.publish(event),
      subscribe: (listener) => {
        listeners += 1;
        const unsubscribe = bus.subscribe(listener);
        return () => {
          listeners -= 1;
          unsubscribe();
        };
      },
      subscribeRun: (runId, listener) => bus.subscribeRun(runId, listener),
    };
    const view = startLiveView(countingBus, { stdout: terminal as unknown as NodeJS.WriteStream, refreshIntervalMs: 60_000 });
    expect(listeners).toBe(1);
    for (const event of events.slice(0, 20)) countingBus.publish(event);
    await view.stop();
    expect(listeners).toBe(0);
    // The refresh interval never came round: only stop drew the 20 events.
    expect(terminal.lastFrame()).toContain('Events 20 events');
    await view.stop();
    expect(listeners).toBe(0);
  });

  it('lays the view out again when the terminal is resized', async () => {
    const events = await recordedRun('convergence-run.jsonl');
    const terminal = new RecordingTerminal();
    const bus = new InProcessEventBus();
    const view = startOn(terminal, bus);
    try {
      for (const event of events) bus.publish(event);
      await vi.waitFor(() => expect(terminal.lastFrame()).toContain('✓ completed (converged)'), WAIT);
      expect(Math.max(...terminal.lastFrame().split('\n').map((row) => [...row].length))).toBe(100);
      terminal.resize(72, 30);
      await vi.waitFor(() => {
        const rows = terminal.lastFrame().split('\n');
        expect(Math.max(...rows.map((row) => [...row].length))).toBe(72);
        expect(rows.length).toBeLessThanOrEqual(30);
      }, WAIT);
      expect(terminal.lastFrame()).toContain('✗ extract_release_date');
    } finally {
      await view.stop();
    }
  });
});
