import type { CapabilityName, HostCapabilities } from './capability-definition.js';
import { resolveSandboxLimits, type SandboxLimits } from './sandbox-limits.js';
import type { SandboxErrorData, SandboxResult } from './sandbox-result.js';
import { runWorkerJob } from './run-worker-job.js';

export type AssertionKind = 'equal' | 'deepEqual' | 'ok' | 'match' | 'throws';

/** One assertion the test made, recorded outside the guest the moment it was made. */
export interface AssertionRecord {
  readonly kind: AssertionKind;
  readonly passed: boolean;
  readonly message: string;
  /** The values compared, rendered as JSON (or `String()`), at most 500 characters each. */
  readonly actual?: string;
  readonly expected?: string;
}

/**
 * What a test run produced, as data; the guest reports, the host judges. Assertions made after `test()`
 * settled (un-awaited `assert.throws` on a promise) are included.
 */
export interface TestRunReport {
  /** True when `test()` resolved; false when it threw or rejected, and then `error` says with what. */
  readonly resolved: boolean;
  readonly error?: SandboxErrorData;
  readonly assertions: readonly AssertionRecord[];
  /** Assertions past the first 1000, not kept. */
  readonly assertionsDropped: number;
  /** How many times the test called `tool(input)`. */
  readonly toolCalls: number;
}

export interface TestRunOptions {
  /** The module under test: the real tool, or a stub when the harness tests the test. */
  readonly toolSource: string;
  /** An ES module whose default export is `async function test(tool, assert)`. */
  readonly testSource: string;
  /** What the tool's `forge` carries. The test itself gets no capabilities. */
  readonly capabilities: readonly CapabilityName[];
  readonly hostCapabilities?: HostCapabilities;
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * Runs a test module against a tool module in one fresh runtime, in two separate contexts: the test's
 * context holds only `tool` and `assert`, the tool's only `forge`, so neither can read or tamper with the
 * other; inputs and results cross between them as JSON. The tool module is evaluated once per test run,
 * so its calls share module-level state. The limits cover both modules together.
 */
export async function runTestInSandbox(options: TestRunOptions): Promise<SandboxResult<TestRunReport>> {
  const result = await runWorkerJob({
    job: { kind: 'run-test', toolSource: options.toolSource, testSource: options.testSource },
    capabilities: options.capabilities,
    hostCapabilities: options.hostCapabilities ?? {},
    limits: resolveSandboxLimits(options.limits),
  });
  if (!result.ok) return result;
  return { ...result, value: result.value as unknown as TestRunReport };
}
