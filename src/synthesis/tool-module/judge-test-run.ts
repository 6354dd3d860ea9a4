import type { SandboxResult, TestRunReport } from '../sandbox/index.js';

/** The harness's verdict on one test run: `failures` says why it did not pass, one line per reason. */
export interface TestVerdict {
  readonly passed: boolean;
  readonly failures: readonly string[];
}

/**
 * Decides pass or fail on the host, from what the sandbox recorded; nothing the guest claims about
 * itself counts. A test passes only if the run ended normally, `test()` resolved, it called the tool,
 * it made at least one assertion, and every assertion held (including ones the test caught and ignored).
 */
export function judgeTestRun(result: SandboxResult<TestRunReport>): TestVerdict {
  if (!result.ok) return { passed: false, failures: [`${result.error.name}: ${result.error.message}`] };
  const report = result.value;
  const failures = [
    ...(report.resolved ? [] : [`test() did not resolve: ${report.error?.name ?? 'Error'}: ${report.error?.message ?? 'unknown error'}`]),
    ...(report.toolCalls === 0 ? ['test() never called tool(input), so it cannot tell a working tool from a broken one'] : []),
    ...(report.assertions.length === 0 ? ['test() made no assertions'] : []),
    ...report.assertions.filter((assertion) => !assertion.passed).map((assertion) => `assert.${assertion.kind} failed: ${assertion.message}`),
    ...(report.assertionsDropped > 0 ? [`test() made more than ${report.assertions.length} assertions; the rest were not recorded`] : []),
  ];
  return { passed: failures.length === 0, failures };
}
