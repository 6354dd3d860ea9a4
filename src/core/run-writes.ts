import type { EventStore } from './event-store.js';
import type { ModelCallStore } from './model-call-store.js';
import type { RunUpdate } from './run-store.js';
import type { ToolCallRecord } from './stats-store.js';
import type { StepStore } from './step-store.js';

/**
 * The writes a running run makes as it goes. Inside `Store.transaction` they are collected, not run:
 * each call resolves at once, and they commit together when the work is done. Nothing read back.
 */
export interface RunWrites {
  readonly runs: { update(id: string, update: RunUpdate): Promise<void> };
  readonly events: Pick<EventStore, 'append' | 'appendAll'>;
  readonly steps: Pick<StepStore, 'record' | 'recordAll'>;
  readonly modelCalls: Pick<ModelCallStore, 'record' | 'recordAll'>;
  /** The tool-call analytics rows (`Store.stats` reads them). */
  readonly toolCalls: { recordAll(calls: readonly ToolCallRecord[]): Promise<void> };
}
