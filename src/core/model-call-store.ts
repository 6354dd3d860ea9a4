import type { ModelCallRecord } from './model.js';

/** Every model call with its tokens, price and latency; a call may belong to no run (`runId: null`). */
export interface ModelCallStore {
  record(call: ModelCallRecord): Promise<void>;
  /** Records several calls, far cheaper than one `record` each; atomic inside `Store.transaction`. */
  recordAll(calls: readonly ModelCallRecord[]): Promise<void>;
  list(runId: string): Promise<ModelCallRecord[]>;
}
