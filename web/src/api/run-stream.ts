import { useEffect, useSyncExternalStore } from 'react';
import type { ForgeEvent, LiveEvent } from './types.js';

/** Every event type of the run log, so the stream listens for each (SSE frames are named by type). */
const EVENT_TYPES = [
  'run-start',
  'run-resume',
  'run-pause',
  'approval-request',
  'approval-answer',
  'model-call-start',
  'model-call',
  'model-error',
  'assistant-text',
  'tool-call-start',
  'policy-decision',
  'tool-result',
  'tool-log',
  'tool-error',
  'plan-update',
  'toolbox-change',
  'verification-failed',
  'synthesis-end',
  'convergence-check',
  'skill-step',
  'skill-match',
  'skill-stale',
  'run-end',
] as const satisfies readonly ForgeEvent['type'][];

/** What a watcher sees of a run: its events in seq order, each once, and the text its model is writing now. */
export interface RunStreamState {
  readonly events: readonly ForgeEvent[];
  /** Streamed text per model iteration, until that iteration's whole `assistant-text` arrives. */
  readonly live: Readonly<Record<number, string>>;
  readonly phase: 'connecting' | 'live' | 'paused' | 'reconnecting' | 'ended';
}

const PAUSE_POLL_MS = 1_500;
const RETRY_MS = 2_000;

/**
 * One run's event stream (Server-Sent Events). Events are kept by seq: one that is not after the last
 * seq held is dropped, so a reconnect (the browser sends Last-Event-ID on its own; a reopened stream asks
 * with `?after=`) never shows an event twice and never skips one. The stream closes at `run-end`; at
 * `run-pause` it waits until the run goes on (an approval answered here or elsewhere), then reopens.
 */
class RunStream {
  private state: RunStreamState = { events: [], live: {}, phase: 'connecting' };
  private readonly listeners = new Set<() => void>();
  private source: EventSource | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSeq = -1;
  private users = 0;

  constructor(private readonly runId: string) {}

  snapshot = (): RunStreamState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  acquire(): void {
    this.users += 1;
    if (this.users === 1 && this.state.phase !== 'ended') this.open();
  }

  release(): void {
    this.users -= 1;
    if (this.users === 0) this.stop();
  }

  /** The run goes on now (its approval was answered here): listen again at once. */
  resume(): void {
    if (this.state.phase === 'paused' && this.users > 0) this.open();
  }

  private set(next: Partial<RunStreamState>): void {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  private stop(): void {
    this.source?.close();
    this.source = undefined;
    clearTimeout(this.timer);
  }

  private open(): void {
    this.stop();
    const source = new EventSource(`/api/v1/runs/${encodeURIComponent(this.runId)}/events?after=${this.lastSeq}`);
    this.source = source;
    source.onopen = () => this.set({ phase: 'live' });
    for (const type of EVENT_TYPES) source.addEventListener(type, (message) => this.receive(JSON.parse((message as MessageEvent<string>).data) as ForgeEvent));
    source.addEventListener('assistant-text-delta', (message) => this.receiveLive(JSON.parse((message as MessageEvent<string>).data) as LiveEvent));
    source.addEventListener('server-shutdown', () => this.set({ phase: 'reconnecting' }));
    source.onerror = () => {
      if (this.source !== source || this.state.phase === 'ended' || this.state.phase === 'paused') return;
      // The browser reconnects by itself after a dropped connection; a refused one (an error status) it gives up on.
      if (source.readyState === EventSource.CLOSED) {
        this.set({ phase: 'reconnecting' });
        this.timer = setTimeout(() => this.open(), RETRY_MS);
      } else this.set({ phase: 'reconnecting' });
    };
  }

  private receive(event: ForgeEvent): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    let live = this.state.live;
    if ((event.type === 'assistant-text' || event.type === 'model-call' || event.type === 'model-error') && live[event.iteration] !== undefined) {
      const { [event.iteration]: _done, ...rest } = live;
      live = rest;
    }
    this.set({ events: [...this.state.events, event], live });
    if (event.type === 'run-end') {
      this.stop();
      this.set({ phase: 'ended', live: {} });
    } else if (event.type === 'run-pause') {
      this.stop();
      this.set({ phase: 'paused' });
      this.pollWhilePaused();
    } else if (event.type === 'run-resume' && this.state.phase === 'paused') this.set({ phase: 'live' });
  }

  private receiveLive(event: LiveEvent): void {
    // A fragment of an iteration whose whole text is already here is late; the text is shown once.
    if (this.state.events.some((held) => held.type === 'assistant-text' && held.iteration === event.iteration && held.seq > this.seqOfLastStart())) return;
    this.set({ live: { ...this.state.live, [event.iteration]: (this.state.live[event.iteration] ?? '') + event.delta } });
  }

  private seqOfLastStart(): number {
    for (let index = this.state.events.length - 1; index >= 0; index -= 1) {
      const event = this.state.events[index]!;
      if (event.type === 'run-start' || event.type === 'run-resume') return event.seq;
    }
    return -1;
  }

  private pollWhilePaused(): void {
    this.timer = setTimeout(() => void this.checkPaused(), PAUSE_POLL_MS);
  }

  /** Asks whether the paused run has moved on (reopening its stream) or is still waiting (asking again later). */
  private async checkPaused(): Promise<void> {
    if (this.state.phase !== 'paused' || this.users === 0) return;
    try {
      const response = await fetch(`/api/v1/runs/${encodeURIComponent(this.runId)}`, { credentials: 'same-origin' });
      const run = response.ok ? ((await response.json()) as { status: string }) : undefined;
      if (run !== undefined && run.status !== 'waiting') return this.open();
    } catch {
      // The server is away for a moment: ask again.
    }
    this.pollWhilePaused();
  }
}

const streams = new Map<string, RunStream>();

function streamOf(runId: string): RunStream {
  let stream = streams.get(runId);
  if (stream === undefined) {
    stream = new RunStream(runId);
    streams.set(runId, stream);
  }
  return stream;
}

const EMPTY: RunStreamState = { events: [], live: {}, phase: 'ended' };
const noop = () => () => {};

/** A run's events, live while it runs; every component watching the same run shares one connection. */
export function useRunStream(runId: string | undefined): RunStreamState {
  const stream = runId === undefined ? undefined : streamOf(runId);
  useEffect(() => {
    if (stream === undefined) return;
    stream.acquire();
    return () => stream.release();
  }, [stream]);
  return useSyncExternalStore(stream?.subscribe ?? noop, stream?.snapshot ?? (() => EMPTY));
}

/** Tells a paused run's stream that its approval was answered here. */
export function resumeRunStream(runId: string): void {
  streams.get(runId)?.resume();
}
