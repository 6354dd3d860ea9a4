/** One tool call of a run, as executed through dispatch. */
export interface StepRecord {
  readonly runId: string;
  /** Position of the step within its run, from 0. */
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  readonly input: unknown;
  /** The text fed back to the model (capped), or null when the call failed. */
  readonly output: string | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly createdAt: string;
}

export type NewStep = Omit<StepRecord, 'createdAt'>;

/** The tool calls of each run, addressed by run id and step index (unique per run). */
export interface StepStore {
  record(step: NewStep): Promise<void>;
  /** Records several steps, far cheaper than one `record` each; atomic inside `Store.transaction`. */
  recordAll(steps: readonly NewStep[]): Promise<void>;
  /** In `index` order. */
  list(runId: string): Promise<StepRecord[]>;
}
