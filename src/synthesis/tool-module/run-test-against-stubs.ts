import { runTestInSandbox, type SandboxLimits } from '../sandbox/index.js';
import { judgeTestRun } from './judge-test-run.js';
import type { ToolModuleMeta } from './tool-module-meta.js';
import { toolStubs, type ToolStubName } from './tool-stubs.js';

export interface StubCheckOptions {
  readonly testSource: string;
  /** The contract the test was written from; the stubs stand in for a tool with this name. */
  readonly meta: ToolModuleMeta;
  readonly limits?: Partial<SandboxLimits>;
}

export interface StubRun {
  readonly stub: ToolStubName;
  readonly behaviour: string;
  /** True when the test passed against this stub, which it must not. */
  readonly passed: boolean;
  /** Why the test failed against the stub (the expected outcome), one line per reason. */
  readonly failures: readonly string[];
}

export interface StubCheckResult {
  /** True when the test failed against every stub: the only outcome that lets its tool be promoted. */
  readonly rejectsEveryStub: boolean;
  /** The stubs the test wrongly passed; a test that passes one cannot tell a real tool from a fake. */
  readonly passedStubs: readonly ToolStubName[];
  readonly runs: readonly StubRun[];
}

/**
 * Tests the test: runs it against each degenerate stub (constants, echo, throw), judged exactly as a
 * real run is. Stubs get no capabilities. The runs are independent sandboxes and run concurrently.
 * Meaningful only beside `runToolTest`: a test that fails everything, even a broken one, rejects every
 * stub, so promotion needs both a pass against the real tool and `rejectsEveryStub`.
 */
export async function runTestAgainstStubs(options: StubCheckOptions): Promise<StubCheckResult> {
  const runs = await Promise.all(
    toolStubs(options.meta.name).map(async (stub): Promise<StubRun> => {
      const result = await runTestInSandbox({
        toolSource: stub.source,
        testSource: options.testSource,
        capabilities: [],
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      });
      const verdict = judgeTestRun(result);
      return { stub: stub.name, behaviour: stub.behaviour, passed: verdict.passed, failures: verdict.failures };
    }),
  );
  const passedStubs = runs.filter((run) => run.passed).map((run) => run.stub);
  return { rejectsEveryStub: passedStubs.length === 0, passedStubs, runs };
}
