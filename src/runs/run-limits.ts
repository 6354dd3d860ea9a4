import { RunCancelledError, type ModelCallCheck } from '../core/index.js';

/**
 * A run's own limits, the first check each of its model calls passes (see `ModelCallCheck`): a
 * cancelled run makes no further call. Its iteration cap stays a stop rule of the loop (halt `cap`),
 * not a refusal.
 */
export function runLimitsCheck(signal: AbortSignal): ModelCallCheck {
  return {
    name: 'run-limits',
    check() {
      if (signal.aborted) throw new RunCancelledError(String(signal.reason ?? 'cancelled'));
    },
  };
}
