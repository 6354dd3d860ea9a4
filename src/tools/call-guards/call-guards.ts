import { callSideEffect, type AnyTool, type ToolContext } from '../../core/index.js';
import { monotonicClock, type CallGuardSettings, type Clock } from './call-guard-settings.js';
import { CallRateLimits } from './call-rate-limits.js';
import { runWithTimeout } from './call-timeout.js';
import { FailureStreaks } from './failure-streaks.js';
import { ResultCache, resultKey, type CachedResult } from './result-cache.js';

/** A call the guards let run: what it must be run through, and what they must hear of how it went. */
export interface GuardedCall {
  /** Runs the call with `context` but a signal of its own (see `runWithTimeout`), under the tool's timeout. */
  run<Value>(context: ToolContext, execute: (context: ToolContext) => Promise<Value>): Promise<Value>;
  /** It ran and returned `result` (as the model is shown it). */
  succeeded(result: CachedResult): void;
  /** It ran and failed with `message`. */
  failed(message: string): void;
}

/** What the guards decided on a call the policy allowed: answered from the cache (it must not run), or to run as `call`. */
export type Admission = { readonly cached: CachedResult; readonly call?: undefined } | { readonly cached?: undefined; readonly call: GuardedCall };

export interface CallGuardOptions {
  /**
   * Tools no guard applies to: a loop's own tools (`final_answer`, `update_plan`, `request_tool`) act
   * on the run itself, not on the world, so a repeated call must reach the loop every time.
   */
  readonly exempt?: Iterable<string>;
  readonly clock?: Clock;
}

/**
 * One run's guards around the execution of its tool calls, applied by dispatch after the policy allowed
 * a call (so a blocked call is never answered from the cache, nor counted):
 *
 * 1. a tool that failed `failuresToBlock` times in a row is refused for the rest of the run;
 * 2. a read-only call identical (tool and canonical input) to one that succeeded within the TTL is
 *    answered with that result instead of running (never a call that may write, never a failure; any
 *    call that may write empties the cache, since it may change what reads return);
 * 3. a call over the per-tool or per-run rate limit is refused;
 * 4. the call runs with a signal of its own that aborts on the run's cancel or on its timeout, and fails
 *    with `ToolTimeoutError` at the timeout.
 *
 * Failures counted towards a block are those of the tool's own execution (what it threw, timeouts);
 * refusals (policy, approvals, rate limits, invalid input) are not: they say nothing of whether the tool works.
 */
export class CallGuards {
  private readonly cache: ResultCache | undefined;
  private readonly streaks: FailureStreaks;
  private readonly rates: CallRateLimits;
  private readonly exempt: ReadonlySet<string>;

  constructor(
    private readonly settings: CallGuardSettings,
    options: CallGuardOptions = {},
  ) {
    const clock = options.clock ?? monotonicClock;
    this.cache = settings.cacheTtlMs === 0 ? undefined : new ResultCache({ ttlMs: settings.cacheTtlMs, maxEntries: settings.cacheMaxEntries, maxBytes: settings.cacheMaxBytes, clock });
    this.streaks = new FailureStreaks(settings.failuresToBlock);
    this.rates = new CallRateLimits({ perToolPerMinute: settings.toolCallsPerMinute, perRunPerMinute: settings.runCallsPerMinute, clock });
    this.exempt = new Set(options.exempt ?? []);
  }

  /**
   * Decides on a call the policy allowed, before it runs: throws `ToolFailureBlockedError` or
   * `ToolRateLimitError` when it is refused; answers it with the result an identical call left in the
   * cache; or lets it run (it then counts towards the rate limits). Undefined for an exempt tool:
   * nothing guards it.
   */
  admit(tool: AnyTool, input: unknown): Admission | undefined {
    if (this.exempt.has(tool.name)) return undefined;
    this.streaks.check(tool.name);
    const reads = callSideEffect(tool, input) === 'read';
    const key = reads && this.cache !== undefined ? resultKey(tool.name, input) : undefined;
    const cached = key === undefined ? undefined : this.cache?.get(key);
    if (cached !== undefined) return { cached };
    this.rates.admit(tool.name);
    const timeoutMs = this.settings.toolTimeoutsMs.get(tool.name) ?? this.settings.timeoutMs;
    return {
      call: {
        run: (context, execute) => runWithTimeout(tool.name, timeoutMs, context, execute),
        succeeded: (result) => {
          this.streaks.succeeded(tool.name);
          if (key !== undefined) this.cache?.set(key, result);
          else if (!reads) this.cache?.clear();
        },
        failed: (message) => {
          this.streaks.failed(tool.name, message);
          if (!reads) this.cache?.clear();
        },
      },
    };
  }
}
