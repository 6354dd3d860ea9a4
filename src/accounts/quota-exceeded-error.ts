import { ForgeError, type QuotaSubject } from '../core/index.js';

/** The limits of a quota, by the names the API and the CLI use. */
export type QuotaName = 'concurrent_runs' | 'runs_per_minute' | 'tokens_per_day' | 'usd_per_day';

/** What refused: which quota of whom, its limit, what was used, and when it frees. */
export interface QuotaRefusal {
  readonly quota: QuotaName;
  readonly subject: QuotaSubject;
  readonly limit: number;
  readonly used: number;
  /** When the quota frees (the minute window moves on, the UTC day ends); null when that is not a time (runs at once free as runs end). */
  readonly resetsAt: string | null;
  /** How long a caller should wait before it tries again: until `resetsAt`, or a short pause for runs at once. */
  readonly retryAfterSeconds: number;
  /** The model of a refused call that has no price, refused under a dollar limit that does not allow unpriced models. */
  readonly unpricedModel?: string;
}

/** How long a refusal of runs at once asks the caller to wait: runs end at no time known in advance. */
export const CONCURRENT_RETRY_SECONDS = 5;

function whose(subject: QuotaSubject): string {
  return subject.kind === 'account' ? `Account ${subject.id}` : `API key ${subject.id}`;
}

/** A refusal in words: what was refused, why, and what to do. */
export function describeQuotaRefusal(refusal: QuotaRefusal): { message: string; hint: string } {
  const who = whose(refusal.subject);
  const later = refusal.resetsAt === null ? `retry in about ${refusal.retryAfterSeconds} s` : `it resets at ${refusal.resetsAt} (in ${refusal.retryAfterSeconds} s)`;
  const raise = 'or ask an admin to raise the quota (forge accounts quota set, PUT /api/v1/accounts/{id}/quota).';
  switch (refusal.quota) {
    case 'concurrent_runs':
      return { message: `${who} has ${refusal.used} runs queued or running, its quota of ${refusal.limit} concurrent runs: the run was not started.`, hint: `Wait for one to end (${later}), ${raise}` };
    case 'runs_per_minute':
      return { message: `${who} started ${refusal.used} runs in the last minute, its quota of ${refusal.limit} runs per minute: the run was not started.`, hint: `Start it later (${later}), ${raise}` };
    case 'tokens_per_day':
      return { message: `${who} used ${refusal.used} model tokens today (UTC), its quota of ${refusal.limit} tokens per day: the model call was not made.`, hint: `The daily count restarts at 00:00 UTC (${later}), ${raise}` };
    case 'usd_per_day':
      if (refusal.unpricedModel !== undefined) {
        return {
          message: `${who} has a quota of $${refusal.limit} per day, and the model ${refusal.unpricedModel} has no known price, so its calls cannot be counted against it: the model call was not made.`,
          hint: `Use a model with a known price, or ask an admin to allow unpriced models in the quota (--allow-unpriced-models, allow_unpriced_models: true); their calls then count tokens only.`,
        };
      }
      return { message: `${who} spent $${refusal.used.toFixed(4)} on model calls today (UTC), its quota of $${refusal.limit} per day: the model call was not made.`, hint: `The daily count restarts at 00:00 UTC (${later}), ${raise}` };
  }
}

/**
 * A run refused at its start because a quota of its account or key is reached (runs at once, runs per
 * minute). Nothing was recorded. The API answers it 429 with Retry-After.
 */
export class QuotaExceededError extends ForgeError {
  readonly refusal: QuotaRefusal;
  constructor(refusal: QuotaRefusal) {
    super({ name: 'QuotaExceededError', ...describeQuotaRefusal(refusal) });
    this.refusal = refusal;
  }
}
