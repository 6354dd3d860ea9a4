import type { JsonValue } from './json-value.js';
import { resolveSandboxLimits, type SandboxLimits } from './sandbox-limits.js';
import type { SandboxResult } from './sandbox-result.js';
import { runWorkerJob } from './run-worker-job.js';

/** What a module exports, read by evaluating it in the sandbox with no capabilities. */
export interface ModuleInspection {
  readonly exportNames: readonly string[];
  /** `typeof` the default export (`"function"` for a tool or a test, `"undefined"` when there is none). */
  readonly defaultExportType: string;
  /** The `meta` export as JSON data; absent when the module has none. */
  readonly meta?: JsonValue;
  /** Set when `meta` exists but cannot be turned into JSON data. */
  readonly metaError?: string;
}

/**
 * Evaluates a module's top level in the sandbox, without calling anything it exports, and describes its
 * exports. Top-level code runs under the same limits as any run, so a module cannot hang this either.
 */
export async function inspectModule(source: string, limits?: Partial<SandboxLimits>): Promise<SandboxResult<ModuleInspection>> {
  const result = await runWorkerJob({ job: { kind: 'inspect-module', source }, capabilities: [], hostCapabilities: {}, limits: resolveSandboxLimits(limits) });
  if (!result.ok) return result;
  const inspection = result.value as { exportNames: string[]; defaultExportType: string; meta?: string; metaError?: string };
  return {
    ...result,
    value: {
      exportNames: inspection.exportNames,
      defaultExportType: inspection.defaultExportType,
      ...(inspection.meta === undefined ? {} : { meta: JSON.parse(inspection.meta) as JsonValue }),
      ...(inspection.metaError === undefined ? {} : { metaError: inspection.metaError }),
    },
  };
}
