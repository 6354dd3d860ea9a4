import type { RunState } from './run-state.js';

/** Each loop run's last checkpoint, replaced at every turn boundary. */
export interface RunStateStore {
  /** Replaces the run's checkpoint; resolves once it is committed. The run must exist. */
  save(state: RunState): Promise<void>;
  /** The stored checkpoint as written (validate it with `parseRunState`), or undefined when the run has none. */
  get(runId: string): Promise<unknown>;
}
