import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EventBus, ForgeEvent, ModelCallRecord, NewStep, RunUpdate, Store } from '../core/index.js';

/** How long events may wait before they are committed to the store (the run log gets them every tick). */
const STORE_FLUSH_INTERVAL_MS = 100;

/**
 * Persists one run's events as they happen: one JSON line each to the run log file (appended every
 * tick), and the same events to the store (events, steps, model calls, and the run's final state on
 * `run-end`), committed together at most every 100 ms and at once on `run-end`. The loop never waits
 * on disk; `close()` flushes everything and reports the first write failure, so nothing is lost
 * silently.
 */
export class RunRecorder {
  private readonly pendingLines: string[] = [];
  private readonly pendingEvents: ForgeEvent[] = [];
  private readonly toolInputs = new Map<string, unknown>();
  private stepIndex = 0;
  private logFlushScheduled = false;
  private storeFlushTimer: NodeJS.Timeout | undefined;
  private storeChain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly unsubscribe: () => void;

  constructor(
    bus: EventBus,
    private readonly runId: string,
    private readonly logFile: string,
    private readonly store: Store,
  ) {
    mkdirSync(path.dirname(logFile), { recursive: true, mode: 0o700 });
    this.unsubscribe = bus.subscribe((event) => {
      if (event.run_id === runId) this.accept(event);
    });
  }

  private accept(event: ForgeEvent): void {
    this.pendingLines.push(JSON.stringify(event));
    this.pendingEvents.push(event);
    if (event.type === 'run-end') {
      this.flushLog();
      this.flushStore();
      return;
    }
    if (!this.logFlushScheduled) {
      this.logFlushScheduled = true;
      setImmediate(() => this.flushLog());
    }
    if (this.storeFlushTimer === undefined) {
      this.storeFlushTimer = setTimeout(() => this.flushStore(), STORE_FLUSH_INTERVAL_MS);
    }
  }

  private flushLog(): void {
    this.logFlushScheduled = false;
    if (this.pendingLines.length === 0) return;
    const lines = this.pendingLines.splice(0).join('\n') + '\n';
    try {
      // The log holds tool inputs and results: created private (0600, in a 0700 folder).
      appendFileSync(this.logFile, lines, { mode: 0o600 });
    } catch (error) {
      this.failure ??= error;
    }
  }

  private flushStore(): void {
    clearTimeout(this.storeFlushTimer);
    this.storeFlushTimer = undefined;
    const events = this.pendingEvents.splice(0);
    if (events.length === 0) return;
    const rows = this.derivedRows(events);
    this.storeChain = this.storeChain
      .then(() =>
        this.store.transaction(async (writes) => {
          await writes.events.appendAll(events);
          await writes.steps.recordAll(rows.steps);
          await writes.modelCalls.recordAll(rows.modelCalls);
          if (rows.runUpdate !== undefined) await writes.runs.update(this.runId, rows.runUpdate);
        }),
      )
      .catch((error: unknown) => {
        this.failure ??= error;
      });
  }

  /** The rows other than the events themselves: steps, model calls, the run's final state. */
  private derivedRows(events: readonly ForgeEvent[]): { steps: NewStep[]; modelCalls: ModelCallRecord[]; runUpdate: RunUpdate | undefined } {
    const steps: NewStep[] = [];
    const modelCalls: ModelCallRecord[] = [];
    let runUpdate: RunUpdate | undefined;
    for (const event of events) {
      switch (event.type) {
        case 'tool-call-start':
          this.toolInputs.set(event.call_id, event.input);
          break;
        case 'tool-result':
        case 'tool-error':
          steps.push({
            runId: this.runId,
            index: this.stepIndex++,
            callId: event.call_id,
            tool: event.tool,
            input: this.toolInputs.get(event.call_id) ?? null,
            output: event.type === 'tool-result' ? event.output : null,
            error: event.type === 'tool-error' ? event.error.message : null,
            durationMs: event.duration_ms,
          });
          break;
        case 'model-call':
          modelCalls.push({
            runId: this.runId,
            model: event.model,
            purpose: event.purpose,
            inputTokens: event.tokens.input,
            outputTokens: event.tokens.output,
            costUsd: event.cost_usd,
            latencyMs: event.latency_ms,
            inputHash: event.input_hash,
            ts: event.ts,
          });
          break;
        case 'run-end':
          runUpdate = {
            status: event.status,
            haltReason: event.halt_reason,
            answer: event.answer,
            llmCalls: event.llm_calls,
            inputTokens: event.tokens.input,
            outputTokens: event.tokens.output,
            costUsd: event.cost_usd,
            error: event.error?.message ?? null,
          };
          break;
        default:
          break;
      }
    }
    return { steps, modelCalls, runUpdate };
  }

  /** Writes what is pending, stops listening, and throws the first write failure if there was one. */
  async close(): Promise<void> {
    this.flushLog();
    this.flushStore();
    this.unsubscribe();
    await this.storeChain;
    if (this.failure !== undefined) throw this.failure;
  }
}
