import type { ForgeEvent, ModelCallRecord, NewStep, RunUpdate, RunWrites, ToolCallRecord } from '../../../core/index.js';
import { appendEventSteps } from './sql-event-store.js';
import { recordModelCallSteps } from './sql-model-call-store.js';
import { updateRunStep } from './sql-run-store.js';
import { recordToolCallSteps } from './sql-stats-store.js';
import { recordStepSteps } from './sql-step-store.js';
import type { WriteStep } from './sql-access.js';

/** The writes of one `Store.transaction`, collected as steps of one unit, built by the table stores' own step builders. */
export class SqlRunWrites implements RunWrites {
  /** Every statement so far, in call order. */
  readonly collected: WriteStep[] = [];

  readonly runs = {
    update: async (id: string, update: RunUpdate): Promise<void> => {
      this.collected.push(updateRunStep(id, update, { returning: false }));
    },
  };

  readonly events = {
    append: async (event: ForgeEvent): Promise<void> => {
      this.collected.push(...appendEventSteps([event]));
    },
    appendAll: async (events: readonly ForgeEvent[]): Promise<void> => {
      this.collected.push(...appendEventSteps(events));
    },
  };

  readonly steps = {
    record: async (step: NewStep): Promise<void> => {
      this.collected.push(...recordStepSteps([step]));
    },
    recordAll: async (steps: readonly NewStep[]): Promise<void> => {
      this.collected.push(...recordStepSteps(steps));
    },
  };

  readonly modelCalls = {
    record: async (call: ModelCallRecord): Promise<void> => {
      this.collected.push(...recordModelCallSteps([call]));
    },
    recordAll: async (calls: readonly ModelCallRecord[]): Promise<void> => {
      this.collected.push(...recordModelCallSteps(calls));
    },
  };

  readonly toolCalls = {
    recordAll: async (calls: readonly ToolCallRecord[]): Promise<void> => {
      this.collected.push(...recordToolCallSteps(calls));
    },
  };
}
