import { writeSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { EventBus, ForgeEvent, Store } from '../../core/index.js';
import { StoreRowDeriver } from './store-rows.js';

/** How long events may wait before they are committed to the store (the run log gets each at once). */
const STORE_FLUSH_INTERVAL_MS = 100;

/**
 * Persists one run's events as they happen: one JSON line each to the run log file (appended as it is
 * emitted), and the same events to the store (events, steps, model calls, and the run's final state on
 * `run-end`), committed together at most every 100 ms and at once on `run-end`. The loop never waits
 * on the store; `close()` flushes everything and reports the first write failure, so nothing is lost
 * silently.
 */
export class RunRecorder {
  private readonly pendingEvents: ForgeEvent[] = [];
  private readonly rows: StoreRowDeriver;
  private storeFlushTimer: NodeJS.Timeout | undefined;
  private storeChain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly unsubscribe: () => void;
  /** The run log, open for appending while the run runs. */
  private log: FileHandle | undefined;

  /**
   * Creates the run log and starts recording. The log holds tool inputs and results: it is created
   * private (0600, in a 0700 folder, made by the first run that finds it missing). Creating it is the
   * one slow step (a new file), so it is done off the event loop; a run that cannot have a log (no
   * space, no permission, no file handle left) fails here, before it starts.
   */
  static async open(bus: EventBus, runId: string, logFile: string, store: Store, options: { recorded?: readonly ForgeEvent[]; committed?: (events: readonly ForgeEvent[]) => void } = {}): Promise<RunRecorder> {
    const recorder = new RunRecorder(bus, runId, await openLog(logFile), store, options.committed);
    // A resumed run goes on numbering its steps after those it recorded before.
    if (options.recorded !== undefined) recorder.rows.derive(options.recorded);
    return recorder;
  }

  private constructor(
    bus: EventBus,
    private readonly runId: string,
    log: FileHandle,
    private readonly store: Store,
    /** Told of each batch of events once the store has committed it (the scaled mode publishes them to other processes). */
    private readonly committed?: (events: readonly ForgeEvent[]) => void,
  ) {
    this.rows = new StoreRowDeriver(runId);
    this.log = log;
    this.unsubscribe = bus.subscribeRun(runId, (event) => this.accept(event));
  }

  private accept(event: ForgeEvent): void {
    this.appendToLog(event);
    this.pendingEvents.push(event);
    if (event.type === 'run-end' || event.type === 'run-pause') {
      this.flushStore();
      return;
    }
    if (this.storeFlushTimer === undefined) {
      this.storeFlushTimer = setTimeout(() => this.flushStore(), STORE_FLUSH_INTERVAL_MS);
    }
  }

  /**
   * Each event is in the log before `emit` returns: whatever the process showed (a line on the terminal,
   * a request it went on to send) survives a kill -9. One write to an open file per event; the file
   * stays open only while the run runs (one handle per concurrent run).
   */
  private appendToLog(event: ForgeEvent): void {
    if (this.log === undefined) return;
    try {
      const line = Buffer.from(`${JSON.stringify(event)}\n`);
      for (let written = 0; written < line.length; ) written += writeSync(this.log.fd, line, written);
    } catch (error) {
      this.failure ??= error;
    }
  }

  private flushStore(): void {
    clearTimeout(this.storeFlushTimer);
    this.storeFlushTimer = undefined;
    const events = this.pendingEvents.splice(0);
    if (events.length === 0) return;
    const rows = this.rows.derive(events);
    this.storeChain = this.storeChain
      .then(() =>
        this.store.transaction(async (writes) => {
          await writes.events.appendAll(events);
          await writes.steps.recordAll(rows.steps);
          await writes.modelCalls.recordAll(rows.modelCalls);
          await writes.toolCalls.recordAll(rows.toolCalls);
          if (rows.runUpdate !== undefined) await writes.runs.update(this.runId, rows.runUpdate);
        }),
      )
      .then(() => this.committed?.(events))
      .catch((error: unknown) => {
        this.failure ??= error;
      });
  }

  /**
   * Commits every event recorded so far to the store, now, and resolves once they are committed (the
   * barrier before a checkpoint or a side-effecting call); throws the first write failure.
   */
  async commit(): Promise<void> {
    this.flushStore();
    await this.storeChain;
    if (this.failure !== undefined) throw this.failure;
  }

  /** Writes what is pending, stops listening, and throws the first write failure if there was one. */
  async close(): Promise<void> {
    this.flushStore();
    this.unsubscribe();
    const log = this.log;
    this.log = undefined;
    // Every line is already written: closing the file need not wait for the store's commit, nor it for the close.
    await Promise.all([
      log?.close().catch((error: unknown) => {
        this.failure ??= error;
      }),
      this.storeChain,
    ]);
    if (this.failure !== undefined) throw this.failure;
  }
}

// `mkdir` on every run cost about 0.3 ms of main-thread time each (a replay's whole fixed cost is ~2 ms).
async function openLog(logFile: string): Promise<FileHandle> {
  try {
    return await open(logFile, 'a', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(path.dirname(logFile), { recursive: true, mode: 0o700 });
    return open(logFile, 'a', 0o600);
  }
}
