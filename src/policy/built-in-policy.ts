import type { Policy } from '../core/index.js';
import { evaluatePolicy } from './evaluate-policy.js';

/**
 * The built-in defaults alone, with no stored policy: low and medium risk run, high risk asks, critical
 * is blocked. For a loop run without a store (a library caller, a test); a runtime uses the engine.
 */
export const builtInPolicy: Policy = {
  async decide(request) {
    return evaluatePolicy([], request, process.cwd()).verdict;
  },
};
