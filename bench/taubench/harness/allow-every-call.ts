import type { Policy } from '../../../src/core/index.js';

/**
 * The policy of the benchmark and its tests: every call runs. The retail tools that write say
 * `destructiveHint`, which Forge's default policy (rightly) holds for an approval nobody is there to
 * give; here the data is a fresh copy made for each replay, and what is measured is what a replay
 * writes, so the writes must be allowed to happen.
 */
export const allowEveryCall: Policy = {
  async decide(request) {
    return { decision: 'allow', reason: `the benchmark allows every call (${request.risk}-risk ${request.sideEffect} tool on a copy of the data)` };
  },
};
