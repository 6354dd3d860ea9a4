import { z } from 'zod';
import type { QuotaLimits, QuotaRecord, QuotaSubject, QuotaUsage } from '../core/index.js';
import { RUNS_PER_MINUTE_WINDOW_MS, nextUtcDay } from './quota-windows.js';

const limit = z.number().int().nonnegative().nullable();

/**
 * A quota as an admin sets it (`PUT /accounts/{id}/quota`, `forge accounts quota set`): the whole
 * quota, each limit left out or null unlimited. Setting replaces what was set before.
 */
export const quotaLimitsRequestSchema = z
  .object({
    concurrent_runs: limit.optional().describe('Runs at once (queued or running); null or absent: unlimited.'),
    runs_per_minute: limit.optional().describe('Runs started in any 60 seconds.'),
    tokens_per_day: limit.optional().describe('Model tokens (input and output) per UTC day.'),
    usd_per_day: z.number().nonnegative().finite().nullable().optional().describe('Dollars of model calls per UTC day, from the pricing table.'),
    allow_unpriced_models: z.boolean().optional().describe('Under usd_per_day, let calls to models without a known price go ahead (they count tokens only). Default false: refused.'),
  })
  .strict();
export type QuotaLimitsRequest = z.input<typeof quotaLimitsRequestSchema>;

export const quotaLimitsViewSchema = z
  .object({ concurrent_runs: limit, runs_per_minute: limit, tokens_per_day: limit, usd_per_day: z.number().nonnegative().nullable(), allow_unpriced_models: z.boolean() })
  .strict();

/** One subject's quota (all null when none is set: unlimited), what it used, and when its windows move on. */
export const quotaViewSchema = z
  .object({
    subject: z.object({ kind: z.enum(['account', 'api-key']), id: z.string() }).strict(),
    limits: quotaLimitsViewSchema,
    usage: z
      .object({
        active_runs: z.number().int().nonnegative().describe('Runs queued or running now.'),
        runs_last_minute: z.number().int().nonnegative(),
        llm_calls_today: z.number().int().nonnegative(),
        tokens_today: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).strict(),
        usd_today: z.number().nonnegative().describe('The sum of the known costs of today\'s calls; calls of models without a price are in unpriced_calls_today, never counted as $0.'),
        unpriced_calls_today: z.number().int().nonnegative(),
      })
      .strict(),
    resets: z
      .object({
        runs_per_minute_at: z.string().nullable().describe('When the oldest run of the last minute leaves the window; null when there is none.'),
        daily_at: z.string().describe('The next 00:00 UTC, when tokens and dollars per day start again.'),
      })
      .strict(),
    updated_at: z.string().nullable().describe('When the quota was set; null when none is (unlimited).'),
  })
  .strict();
export type QuotaView = z.infer<typeof quotaViewSchema>;

/** An account's quota and those of its keys that have one, each with what it used. */
export const accountQuotaViewSchema = z
  .object({
    account: z.object({ user_id: z.string(), email: z.string() }).strict(),
    quota: quotaViewSchema,
    api_keys: z.array(z.object({ key_id: z.string(), name: z.string(), quota: quotaViewSchema }).strict()).describe('The account\'s keys that have a quota of their own.'),
  })
  .strict();
export type AccountQuotaView = z.infer<typeof accountQuotaViewSchema>;

/** The limits of a request, as stored: absent limits are unlimited. */
export function quotaLimitsFrom(request: z.output<typeof quotaLimitsRequestSchema>): QuotaLimits {
  return {
    concurrentRuns: request.concurrent_runs ?? null,
    runsPerMinute: request.runs_per_minute ?? null,
    tokensPerDay: request.tokens_per_day ?? null,
    usdPerDay: request.usd_per_day ?? null,
    allowUnpricedModels: request.allow_unpriced_models ?? false,
  };
}

export function quotaView(subject: QuotaSubject, quota: QuotaRecord | undefined, usage: QuotaUsage, now: Date): QuotaView {
  return {
    subject: { kind: subject.kind, id: subject.id },
    limits: {
      concurrent_runs: quota?.concurrentRuns ?? null,
      runs_per_minute: quota?.runsPerMinute ?? null,
      tokens_per_day: quota?.tokensPerDay ?? null,
      usd_per_day: quota?.usdPerDay ?? null,
      allow_unpriced_models: quota?.allowUnpricedModels ?? false,
    },
    usage: {
      active_runs: usage.activeRuns,
      runs_last_minute: usage.recentRuns,
      llm_calls_today: usage.llmCalls,
      tokens_today: { input: usage.tokens.input, output: usage.tokens.output, total: usage.tokens.input + usage.tokens.output },
      usd_today: Math.round(usage.pricedCostUsd * 1e6) / 1e6,
      unpriced_calls_today: usage.unpricedCalls,
    },
    resets: {
      runs_per_minute_at: usage.oldestRecentRunAt === null ? null : new Date(Date.parse(usage.oldestRecentRunAt) + RUNS_PER_MINUTE_WINDOW_MS).toISOString(),
      daily_at: nextUtcDay(now).toISOString(),
    },
    updated_at: quota?.updatedAt ?? null,
  };
}
