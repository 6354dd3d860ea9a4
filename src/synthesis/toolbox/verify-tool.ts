import type { HostCapabilities, SandboxLimits } from '../sandbox/index.js';
import { runTestAgainstStubs, runToolTest, type StubCheckResult, type ToolTestResult } from '../tool-module/index.js';

export interface VerifyToolOptions {
  readonly toolSource: string;
  readonly testSource: string;
  /** Resources for the capabilities the tool declares (the guarded fetch, a scratch folder for `fs`). */
  readonly hostCapabilities?: HostCapabilities;
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * The verification gate's verdict. `passed` only when the test passed against the tool in the sandbox
 * (judged on the host, capabilities used ⊆ declared) and then failed against every stub. Which side is
 * at fault says who must revise: `tool` (the test failed) or `test` (the test cannot tell a stub apart).
 */
export type ToolVerification =
  | { readonly passed: true; readonly testRun: ToolTestResult; readonly stubCheck: StubCheckResult }
  | {
      readonly passed: false;
      readonly fault: 'tool' | 'test';
      readonly failures: readonly string[];
      readonly testRun: ToolTestResult;
      readonly stubCheck?: StubCheckResult;
    };

/**
 * Runs the whole gate: the test against the tool, then (only after a pass) the same test against each
 * degenerate stub. Never throws for anything the tool or the test does.
 */
export async function verifyTool(options: VerifyToolOptions): Promise<ToolVerification> {
  const testRun = await runToolTest(options);
  if (!testRun.passed || testRun.tool === undefined) return { passed: false, fault: 'tool', failures: testRun.failures, testRun };
  const stubCheck = await runTestAgainstStubs({
    testSource: options.testSource,
    meta: testRun.tool.meta,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  if (stubCheck.rejectsEveryStub) return { passed: true, testRun, stubCheck };
  const passed = stubCheck.runs.filter((run) => run.passed);
  return {
    passed: false,
    fault: 'test',
    failures: [`the test also passed against ${passed.map((run) => `a stub that ${run.behaviour}`).join(', ')}, so it cannot tell a working tool from a fake one`],
    testRun,
    stubCheck,
  };
}

/** The sandbox's own words about a failed verification, for the log and the reviser. */
export function describeVerificationFailure(verification: Exclude<ToolVerification, { passed: true }>): string {
  const logs = verification.testRun.logs.length === 0 ? [] : ['logs:', ...verification.testRun.logs.map((line) => `  ${line}`)];
  const stack = verification.testRun.error?.stack === undefined ? [] : [verification.testRun.error.stack];
  return [`FAIL (${verification.fault === 'tool' ? 'the tool failed its test' : 'the test was rejected'})`, ...verification.failures.map((line) => `  ${line}`), ...stack, ...logs].join('\n');
}
