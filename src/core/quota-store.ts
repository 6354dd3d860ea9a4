/** Who a quota limits: an account (every run it starts, by any credential), or one service key of an account. */
export interface QuotaSubject {
  readonly kind: 'account' | 'api-key';
  /** The account's id, or the key's id. */
  readonly id: string;
}

/** What a quota allows. Each limit is null when it is not set (unlimited); a quota with every limit null limits nothing. */
export interface QuotaLimits {
  /** Runs at once (queued or running; a run waiting for an approval does not count). */
  readonly concurrentRuns: number | null;
  /** Runs started in any 60 seconds. */
  readonly runsPerMinute: number | null;
  /** Model tokens (input and output) in one UTC day. */
  readonly tokensPerDay: number | null;
  /** Dollars of model calls in one UTC day, from the pricing table. */
  readonly usdPerDay: number | null;
  /**
   * Whether calls to a model without a known price may go ahead under `usdPerDay` (they count their
   * tokens, never a guessed price). Without it such a call is refused while a dollar limit is set.
   */
  readonly allowUnpricedModels: boolean;
}

/** One subject's quota as stored. */
export interface QuotaRecord extends QuotaLimits {
  readonly subject: QuotaSubject;
  /** The account the subject is, or the account whose key it is. */
  readonly userId: string;
  readonly updatedAt: string;
}

/** A subject's runs, counted as a start is admitted against them (by `runs.user_id` for an account, `runs.api_key_id` for a key). */
export interface QuotaRunCounts {
  /** Its runs that are queued or running now. */
  readonly activeRuns: number;
  /** Its runs created at or after `runsSince`. */
  readonly recentRuns: number;
  /** When the oldest of those was created (it leaves the window 60 s later); null when there are none. */
  readonly oldestRecentRunAt: string | null;
}

/** What a subject used, counted over its runs: its runs (see `QuotaRunCounts`), and its model calls. */
export interface QuotaUsage extends QuotaRunCounts {
  /** Model calls of its runs at or after `QuotaWindows.callsSince`. */
  readonly llmCalls: number;
  readonly tokens: { readonly input: number; readonly output: number };
  /** The sum of those calls' known costs; calls of unpriced models add nothing here and are counted in `unpricedCalls`. */
  readonly pricedCostUsd: number;
  readonly unpricedCalls: number;
}

/** The windows a usage read counts in: runs created since `runsSince`, model calls since `callsSince` (ISO-8601 UTC). */
export interface QuotaWindows {
  readonly runsSince: string;
  readonly callsSince: string;
  /** A run whose model calls are left out (a running run counts its own from its meter, which is ahead of the store). */
  readonly excludeRunId?: string;
}

/** A limit a new run must pass as it is created (`RunStore.createWithin`): the subject's runs at once, and its runs in the last minute. */
export interface RunAdmissionLimit {
  readonly subject: QuotaSubject;
  readonly concurrentRuns: number | null;
  readonly runsPerMinute: number | null;
}

/** Quotas of accounts and their service keys, and the counts they are enforced against. */
export interface QuotaStore {
  get(subject: QuotaSubject): Promise<QuotaRecord | undefined>;
  /** Sets (creates or replaces) a subject's quota. */
  set(quota: Omit<QuotaRecord, 'updatedAt'>): Promise<QuotaRecord>;
  /** Removes a subject's quota (unlimited again); returns whether it had one. */
  clear(subject: QuotaSubject): Promise<boolean>;
  /** Every quota of one account: its own and its keys'. */
  listForUser(userId: string): Promise<QuotaRecord[]>;
  usage(subject: QuotaSubject, windows: QuotaWindows): Promise<QuotaUsage>;
  /** Only the counts of its runs (no model calls): what a start's admission reads, at the cost of two indexed counts. */
  runCounts(subject: QuotaSubject, runsSince: string): Promise<QuotaRunCounts>;
}
