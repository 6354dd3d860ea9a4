import type { NewRun, QuotaRecord, QuotaSubject, RunAdmissionLimit, RunRecord, Store } from '../core/index.js';
import { CONCURRENT_RETRY_SECONDS, QuotaExceededError, type QuotaRefusal } from './quota-exceeded-error.js';
import { minuteWindowStart, RUNS_PER_MINUTE_WINDOW_MS } from './quota-windows.js';

/** How often a start a limit refused is tried again when, read back, no limit is reached (a run ended meanwhile). */
const ATTEMPTS = 3;

/** The subjects a run counts for: its account, and the service key that started it. */
export function quotaSubjectsOf(run: { readonly userId?: string | null; readonly apiKeyId?: string | null }): QuotaSubject[] {
  return [...(run.userId == null ? [] : [{ kind: 'account' as const, id: run.userId }]), ...(run.apiKeyId == null ? [] : [{ kind: 'api-key' as const, id: run.apiKeyId }])];
}

/**
 * The one admission check of a run's start: creates the run's record when the quotas of its account
 * and of its key admit one more run (runs at once, runs per minute), atomically with the counts
 * (`RunStore.createWithin`), so a flood of concurrent starts never passes a limit and never delays
 * another account's start by more than a store write. Throws `QuotaExceededError` naming the quota,
 * and creates nothing, otherwise. A run without an account (the CLI's, the operator's) and an account
 * without a quota are not limited. The run service calls it for every run it creates.
 */
export async function admitRun(store: Pick<Store, 'runs' | 'quotas'>, run: NewRun, now: () => Date = () => new Date()): Promise<RunRecord> {
  const limits = await runLimitsOf(store, run);
  if (limits.length === 0) return store.runs.create(run);
  let refusal: QuotaRefusal | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const created = await store.runs.createWithin(run, limits, minuteWindowStart(now()).toISOString());
    if (created !== undefined) return created;
    refusal = await reachedLimit(store, limits, now());
    if (refusal !== undefined) break;
  }
  // Read back, every limit had room three times over: runs end and start fast; name the first limit.
  throw new QuotaExceededError(refusal ?? fallbackRefusal(limits[0]!));
}

/**
 * The admission's first look, read-only, before a start resolves its model or writes anything (the run
 * front door's first step): throws `QuotaExceededError` when a quota of the run's account or key that
 * limits starts is reached now, so a flood of starts past a quota costs the store two reads each and
 * leaves no row behind. What it lets through is still admitted by `admitRun`, atomically with its
 * record: two starts that both pass here cannot both take the last place.
 */
export async function refuseStartPastQuota(store: Pick<Store, 'quotas'>, principal: { readonly userId?: string | null; readonly apiKeyId?: string | null }, now: () => Date = () => new Date()): Promise<void> {
  const limits = await runLimitsOf(store, principal);
  if (limits.length === 0) return;
  const refusal = await reachedLimit(store, limits, now());
  if (refusal !== undefined) throw new QuotaExceededError(refusal);
}

/** The limits on starts (runs at once, runs per minute) of the subjects a run counts for; none when no quota limits them. */
async function runLimitsOf(store: Pick<Store, 'quotas'>, run: { readonly userId?: string | null; readonly apiKeyId?: string | null }): Promise<RunAdmissionLimit[]> {
  const subjects = quotaSubjectsOf(run);
  if (subjects.length === 0) return [];
  const quotas = await Promise.all(subjects.map((subject) => store.quotas.get(subject)));
  return quotas
    .filter((quota): quota is QuotaRecord => quota !== undefined && (quota.concurrentRuns !== null || quota.runsPerMinute !== null))
    .map((quota) => ({ subject: quota.subject, concurrentRuns: quota.concurrentRuns, runsPerMinute: quota.runsPerMinute }));
}

/** Which limit is reached now, read from the counts; undefined when none is (a run ended since the refusal). */
async function reachedLimit(store: Pick<Store, 'quotas'>, limits: readonly RunAdmissionLimit[], at: Date): Promise<QuotaRefusal | undefined> {
  for (const limit of limits) {
    const usage = await store.quotas.runCounts(limit.subject, minuteWindowStart(at).toISOString());
    if (limit.concurrentRuns !== null && usage.activeRuns >= limit.concurrentRuns) {
      return { quota: 'concurrent_runs', subject: limit.subject, limit: limit.concurrentRuns, used: usage.activeRuns, resetsAt: null, retryAfterSeconds: CONCURRENT_RETRY_SECONDS };
    }
    if (limit.runsPerMinute !== null && usage.recentRuns >= limit.runsPerMinute) {
      // The window frees a place when its oldest run leaves it.
      const frees = usage.oldestRecentRunAt === null ? at.getTime() : Date.parse(usage.oldestRecentRunAt) + RUNS_PER_MINUTE_WINDOW_MS;
      return { quota: 'runs_per_minute', subject: limit.subject, limit: limit.runsPerMinute, used: usage.recentRuns, resetsAt: new Date(frees).toISOString(), retryAfterSeconds: Math.max(1, Math.ceil((frees - at.getTime()) / 1000)) };
    }
  }
  return undefined;
}

function fallbackRefusal(limit: RunAdmissionLimit): QuotaRefusal {
  return limit.concurrentRuns !== null
    ? { quota: 'concurrent_runs', subject: limit.subject, limit: limit.concurrentRuns, used: limit.concurrentRuns, resetsAt: null, retryAfterSeconds: CONCURRENT_RETRY_SECONDS }
    : { quota: 'runs_per_minute', subject: limit.subject, limit: limit.runsPerMinute ?? 0, used: limit.runsPerMinute ?? 0, resetsAt: null, retryAfterSeconds: 1 };
}
