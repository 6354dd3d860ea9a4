import {
  findUndeclaredCapabilities,
  runTestInSandbox,
  type CapabilityName,
  type HostCapabilities,
  type SandboxErrorData,
  type SandboxLimits,
  type TestRunReport,
} from '../sandbox/index.js';
import { judgeTestRun } from './judge-test-run.js';
import { parseToolModule, type ToolModule } from './parse-tool-module.js';
import { ToolModuleError } from './tool-module-error.js';

export interface ToolTestOptions {
  readonly toolSource: string;
  /** An ES module whose default export is `async function test(tool, assert)`. */
  readonly testSource: string;
  /** Resources for the capabilities the tool declares (a guarded fetch, its folder). */
  readonly hostCapabilities?: HostCapabilities;
  /** Limits for the test run, which covers the test and every tool call it makes. */
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * The harness's verdict on a tool against its test. `passed` is decided here, on the host, from the
 * recorded run: the test must pass (see `judgeTestRun`) and the tool may have used only the capabilities
 * its meta declares. `failures` explains every reason it did not pass, for the author to revise from.
 */
export interface ToolTestResult {
  readonly passed: boolean;
  readonly failures: readonly string[];
  /** The parsed tool; absent when the module broke the contract (then `failures` lists how). */
  readonly tool?: ToolModule;
  /** What the test run recorded; absent when the run itself failed (timeout, memory, module error). */
  readonly report?: TestRunReport;
  readonly error?: SandboxErrorData;
  readonly capabilitiesDeclared: readonly CapabilityName[];
  readonly capabilitiesUsed: readonly CapabilityName[];
  /** Used but not declared; promotion requires this to be empty. */
  readonly undeclaredCapabilities: readonly CapabilityName[];
  readonly logs: readonly string[];
  readonly durationMs: number;
  readonly timedOut?: true;
  readonly memoryExceeded?: true;
}

/**
 * Validates the tool module, then runs the test against it in the sandbox with exactly the declared
 * capabilities granted. Never throws for anything the tool or the test does; throws `SandboxSetupError`
 * when a declared capability has no host resource in `hostCapabilities`.
 */
export async function runToolTest(options: ToolTestOptions): Promise<ToolTestResult> {
  const startedAt = performance.now();
  let tool: ToolModule;
  try {
    tool = await parseToolModule(options.toolSource, options.limits === undefined ? {} : { limits: options.limits });
  } catch (error) {
    if (!(error instanceof ToolModuleError)) throw error;
    return {
      passed: false,
      failures: error.issues.map((issue) => `tool module: ${issue}`),
      capabilitiesDeclared: [],
      capabilitiesUsed: [],
      undeclaredCapabilities: [],
      logs: [],
      durationMs: performance.now() - startedAt,
    };
  }

  const declared = tool.meta.capabilities;
  const result = await runTestInSandbox({
    toolSource: tool.source,
    testSource: options.testSource,
    capabilities: declared,
    ...(options.hostCapabilities === undefined ? {} : { hostCapabilities: options.hostCapabilities }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  const undeclared = findUndeclaredCapabilities(declared, result.capabilitiesUsed);
  const verdict = judgeTestRun(result);
  const failures = [
    ...verdict.failures,
    ...(undeclared.length === 0 ? [] : [`the tool used capabilities its meta does not declare: ${undeclared.join(', ')}`]),
  ];
  return {
    passed: failures.length === 0,
    failures,
    tool,
    ...(result.ok ? { report: result.value } : { error: result.error }),
    capabilitiesDeclared: declared,
    capabilitiesUsed: result.capabilitiesUsed,
    undeclaredCapabilities: undeclared,
    logs: result.logs,
    durationMs: performance.now() - startedAt,
    ...(!result.ok && result.timedOut === true ? { timedOut: true } : {}),
    ...(!result.ok && result.memoryExceeded === true ? { memoryExceeded: true } : {}),
  };
}
