import { ModelCallRefusedError, type ModelCallCheck, type ModelCallRequest, type Store } from '../core/index.js';
import { describeQuotaRefusal, type QuotaRefusal } from './quota-exceeded-error.js';
import { nextUtcDay, startOfUtcDay } from './quota-windows.js';
import { quotaSubjectsOf } from './run-admission.js';

export interface QuotaCheckOptions {
  /** Whether a model slug has a known price (the pricing table). */
  isPriced(model: string): boolean;
  /** The clock (tests); default the system's. */
  readonly now?: () => Date;
}

/**
 * The daily quotas of a run's account and key, as a pre-call check (see `ModelCallCheck`): a model call
 * is refused, and its run ends `quota_exceeded`, once today's (UTC) tokens or dollars reach a limit.
 * Today's use is the stored calls of the subject's other runs plus this run's own, from its meter
 * (ahead of the store). A call that starts under a limit may end past it; the next one is refused.
 * Under a dollar limit, a call to a model without a known price is refused unless the quota allows
 * unpriced models; such calls count their tokens and never a guessed price.
 */
export function quotaCheck(store: Pick<Store, 'quotas'>, options: QuotaCheckOptions): ModelCallCheck {
  const now = options.now ?? (() => new Date());
  return {
    name: 'account-quota',
    async check(call) {
      for (const subject of quotaSubjectsOf(call)) {
        const quota = await store.quotas.get(subject);
        if (quota === undefined || (quota.tokensPerDay === null && quota.usdPerDay === null)) continue;
        const at = now();
        const resets = nextUtcDay(at);
        const refusalAt = (refusal: Omit<QuotaRefusal, 'subject' | 'resetsAt' | 'retryAfterSeconds'>): QuotaRefusal => ({
          ...refusal,
          subject,
          resetsAt: resets.toISOString(),
          retryAfterSeconds: Math.max(1, Math.ceil((resets.getTime() - at.getTime()) / 1000)),
        });
        if (quota.usdPerDay !== null && !quota.allowUnpricedModels && !options.isPriced(call.model)) {
          refuse(refusalAt({ quota: 'usd_per_day', limit: quota.usdPerDay, used: 0, unpricedModel: call.model }));
        }
        const usage = await store.quotas.usage(subject, { runsSince: at.toISOString(), callsSince: startOfUtcDay(at).toISOString(), ...(call.runId === null ? {} : { excludeRunId: call.runId }) });
        const tokens = usage.tokens.input + usage.tokens.output + ownTokens(call);
        if (quota.tokensPerDay !== null && tokens >= quota.tokensPerDay) refuse(refusalAt({ quota: 'tokens_per_day', limit: quota.tokensPerDay, used: tokens }));
        const usd = usage.pricedCostUsd + call.spent.pricedCostUsd;
        if (quota.usdPerDay !== null && usd >= quota.usdPerDay) refuse(refusalAt({ quota: 'usd_per_day', limit: quota.usdPerDay, used: usd }));
      }
    },
  };
}

function ownTokens(call: ModelCallRequest): number {
  return call.spent.tokens.input + call.spent.tokens.output;
}

function refuse(refusal: QuotaRefusal): never {
  throw new ModelCallRefusedError({ check: 'account-quota', haltReason: 'quota_exceeded', ...describeQuotaRefusal(refusal) });
}
