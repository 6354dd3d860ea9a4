import type { AgentPin } from './agent-store.js';
import type { HaltReason, RunKind, RunStatus } from './events.js';
import type { RunAdmissionLimit } from './quota-store.js';

/** The process that runs a run: while it lives, nobody else may call the run interrupted. */
export interface RunOwner {
  readonly pid: number;
  readonly host: string;
}

export interface RunRecord {
  readonly id: string;
  readonly kind: RunKind;
  readonly task: string;
  readonly model: string;
  readonly status: RunStatus;
  readonly haltReason: HaltReason | null;
  readonly answer: string | null;
  readonly conversationId: string | null;
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Null when any of its model calls had no known price: never a guess (see `pricedCostUsd`). */
  readonly costUsd: number | null;
  /** What its priced model calls add up to: the known part of `costUsd`. */
  readonly pricedCostUsd: number;
  /** How many of its model calls had no known price. */
  readonly unpricedCalls: number;
  /** The error message when the run failed. */
  readonly error: string | null;
  /** Who runs it; null for runs stored before owners were recorded. */
  readonly owner: RunOwner | null;
  /** Its run log (`FORGE_HOME/runs/…jsonl`); null for runs stored before it was recorded. */
  readonly logFile: string | null;
  /** The account that started it; null when none did (the CLI, or before accounts): the first admin's. */
  readonly userId: string | null;
  /** The service key that started it, when one did (quotas per key count its runs); null otherwise. */
  readonly apiKeyId: string | null;
  /** The agent definition version it ran (`forge run --agent slug@2`); null for runs without one. */
  readonly agent: AgentPin | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A new run starts `running` in the process that runs it, or `queued` for a worker to take (`claim` from `queued`). */
export type NewRun = Pick<RunRecord, 'id' | 'task' | 'model' | 'conversationId'> & Partial<Pick<RunRecord, 'kind' | 'owner' | 'logFile' | 'userId' | 'apiKeyId' | 'agent'>> & { readonly status?: 'running' | 'queued' };

/** Records of one account: its own, and with `includeUnowned` also those stored without an account (the first admin's). */
export interface OwnedBy {
  readonly userId: string;
  readonly includeUnowned: boolean;
}
export type RunUpdate = Partial<Pick<RunRecord, 'status' | 'haltReason' | 'answer' | 'llmCalls' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'pricedCostUsd' | 'unpricedCalls' | 'error'>>;

/** The `runs` aggregate: one record per run of any kind, its status and totals. */
export interface RunStore {
  create(run: NewRun): Promise<RunRecord>;
  /**
   * Creates `run` only when every limit admits one more run, atomically: no run of those subjects is
   * created between the counts and the insert, in this process or any other on the same database, so
   * a flood of concurrent starts never passes a limit. Returns the run, or undefined when a limit
   * refused it (nothing is created). A subject's runs are those of its `userId` (an account) or its
   * `apiKeyId` (a key); queued and running ones count as at once, and those created at or after
   * `runsSince` against its runs per minute.
   */
  createWithin(run: NewRun, limits: readonly RunAdmissionLimit[], runsSince: string): Promise<RunRecord | undefined>;
  update(id: string, update: RunUpdate): Promise<RunRecord>;
  /**
   * Takes a stopped or paused run over for `owner`, atomically: when its status is one of `from`, it
   * becomes `running` with no halt reason or error, and true is returned; otherwise nothing changes and
   * false is returned (another process claimed it first, or it is in no state to go on). `logFile`, when
   * given, becomes its run log (a worker taking a queued run writes the log on its own disk).
   */
  claim(id: string, owner: RunOwner, from: readonly RunStatus[], options?: { readonly logFile?: string }): Promise<boolean>;
  get(id: string): Promise<RunRecord | undefined>;
  /** Newest first; only runs in one of `statuses` when given; only runs started before run `before` when given (a cursor); only one account's with `ownedBy`. */
  list(options?: { limit?: number; statuses?: readonly RunStatus[]; before?: string; ownedBy?: OwnedBy }): Promise<RunRecord[]>;
  /**
   * Runs whose id starts with `prefix`, newest first, at most `limit`. The prefix is taken literally
   * and case-sensitively (`%` and `_` match only themselves); an empty prefix matches nothing.
   */
  findByIdPrefix(prefix: string, limit: number): Promise<RunRecord[]>;
  /**
   * Deletes a run with everything recorded under it, in one transaction: its events, steps, model
   * calls, run state and approvals, then its row. Returns whether the run existed. Its run log file is
   * not the store's: the caller removes it. Conversations it took part in stay.
   */
  delete(id: string): Promise<boolean>;
}
