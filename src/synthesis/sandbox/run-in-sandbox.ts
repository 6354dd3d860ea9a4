import type { CapabilityName, HostCapabilities } from './capability-definition.js';
import type { JsonValue } from './json-value.js';
import { resolveSandboxLimits, type SandboxLimits } from './sandbox-limits.js';
import type { SandboxResult } from './sandbox-result.js';
import { SandboxSetupError } from './sandbox-setup-error.js';
import { runWorkerJob } from './run-worker-job.js';

export interface SandboxRunOptions {
  /** An ES module whose default export is `async function run(input, forge)`. */
  readonly source: string;
  /** Passed to `run` as its first argument, as a fresh guest copy. */
  readonly input: JsonValue;
  /** What `forge` carries. Each needs its resource in `hostCapabilities`; nothing is granted by default. */
  readonly capabilities: readonly CapabilityName[];
  readonly hostCapabilities?: HostCapabilities;
  /** Defaults to `defaultSandboxLimits` for anything left out. */
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * Runs a tool module once in a fresh QuickJS instance inside a pooled worker thread and returns what it
 * returned, as JSON data, with its logs and the capabilities it used. The guest sees only the standard
 * JavaScript built-ins and `forge`: no process, environment, host objects, imports or timers.
 * Throws `SandboxSetupError` when the run cannot start (bad limits, unknown capability, a granted
 * capability without its host resource, input that is not JSON); never because of what the guest does.
 */
export async function runInSandbox(options: SandboxRunOptions): Promise<SandboxResult> {
  return runWorkerJob({
    job: { kind: 'run-tool', source: options.source, inputJson: inputAsJson(options.input) },
    capabilities: options.capabilities,
    hostCapabilities: options.hostCapabilities ?? {},
    limits: resolveSandboxLimits(options.limits),
  });
}

function inputAsJson(input: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch (error) {
    throw new SandboxSetupError(`The input is not JSON data: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (json === undefined) throw new SandboxSetupError('The input is not JSON data (undefined, a function or a symbol).');
  return json;
}
