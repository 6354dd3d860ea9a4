// @ts-check
/**
 * Counts the time the guest spends inside QuickJS. Only the outermost entry measures, because host
 * functions the guest calls may enter the guest again.
 * @param {number} budgetMs
 */
export function createGuestClock(budgetMs) {
  let spentMs = 0;
  let depth = 0;
  let sliceStart = 0;
  let exceeded = false;
  return {
    get exceeded() {
      return exceeded;
    },
    /** @template Result @param {() => Result} action @returns {Result} */
    run(action) {
      if (depth++ === 0) sliceStart = performance.now();
      try {
        return action();
      } finally {
        if (--depth === 0) spentMs += performance.now() - sliceStart;
      }
    },
    shouldInterrupt() {
      if (!exceeded && depth > 0) exceeded = spentMs + (performance.now() - sliceStart) > budgetMs;
      return exceeded;
    },
  };
}
