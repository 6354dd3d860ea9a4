import { inspectModule, type SandboxLimits } from '../sandbox/index.js';
import { ToolModuleError } from './tool-module-error.js';
import { toolModuleMetaSchema, type ToolModuleMeta } from './tool-module-meta.js';

/** A tool module that met the contract: its source, unchanged, and its validated `meta`. */
export interface ToolModule {
  readonly source: string;
  readonly meta: ToolModuleMeta;
}

// Reading meta runs only the module's top level; it needs far less than a real run.
const inspectionLimits: Partial<SandboxLimits> = { cpuMs: 500, wallMs: 10_000 };

/**
 * Reads a tool module's `meta` by evaluating the module in the sandbox (no capabilities, nothing called)
 * and validates it and the default export against the contract. Throws `ToolModuleError` listing every
 * problem, including a module that does not load.
 */
export async function parseToolModule(source: string, options: { limits?: Partial<SandboxLimits> } = {}): Promise<ToolModule> {
  const inspected = await inspectModule(source, { ...inspectionLimits, ...options.limits });
  if (!inspected.ok) throw new ToolModuleError([`${inspected.error.name}: ${inspected.error.message}`]);
  const { defaultExportType, meta, metaError } = inspected.value;
  const parsed = metaError === undefined && meta !== undefined ? toolModuleMetaSchema.safeParse(meta) : undefined;
  const issues = [
    ...(defaultExportType === 'function'
      ? []
      : [`the default export must be async function run(input, forge); it is ${defaultExportType === 'undefined' ? 'missing' : `a ${defaultExportType}`}`]),
    ...(metaError !== undefined ? [metaError] : meta === undefined ? ['there is no `meta` export'] : []),
    ...(parsed?.success === false ? parsed.error.issues.map((issue) => `${['meta', ...issue.path.map(String)].join('.')} ${issue.message}`) : []),
  ];
  if (issues.length > 0 || parsed?.success !== true) throw new ToolModuleError(issues);
  return { source, meta: parsed.data as ToolModuleMeta };
}
