import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { quickJsWasmModule } from './quickjs-wasm-module.js';
import { defaultSandboxLimits } from './sandbox-limits.js';
import { SandboxSetupError } from './sandbox-setup-error.js';
import { SandboxWorkerPool, type WorkerPoolStatistics } from './worker-pool.js';
import type { WorkerData } from './worker-protocol.js';

const workerScript = new URL('./sandbox-worker.mjs', import.meta.url);

// QuickJS's static data and C stack take about 5 MiB of its WebAssembly memory before the guest's heap,
// and the module cannot start with less than 16 MiB.
const quickJsOverheadBytes = 6 * 1024 * 1024;
const minimumWasmMemoryBytes = 16 * 1024 * 1024;

/** The fixed size of the WebAssembly memory a run with this memory limit gets. */
export function wasmMemoryBytesFor(memoryBytes: number): number {
  return Math.max(minimumWasmMemoryBytes, memoryBytes + quickJsOverheadBytes);
}

let pool: Promise<SandboxWorkerPool> | undefined;

/** The process's sandbox workers, created on first use (after compiling QuickJS once). */
export function sandboxWorkers(): Promise<SandboxWorkerPool> {
  pool ??= createPool().catch((error: unknown) => {
    pool = undefined;
    throw error;
  });
  return pool;
}

async function createPool(): Promise<SandboxWorkerPool> {
  if (!existsSync(fileURLToPath(workerScript))) {
    throw new SandboxSetupError(
      `The sandbox worker script is missing: ${fileURLToPath(workerScript)}.`,
      'The build must emit the .mjs files of src/synthesis/sandbox/ next to the compiled sandbox (allowJs in tsconfig.build.json).',
    );
  }
  const workerData: WorkerData = { wasmModule: await quickJsWasmModule(), preparedWasmMemoryBytes: wasmMemoryBytesFor(defaultSandboxLimits.memoryBytes) };
  return new SandboxWorkerPool(workerScript, workerData);
}

/**
 * Gets the sandbox ready ahead of runs that are coming (compiles QuickJS, starts a worker that prepares
 * an instance), so the first run does not wait for either. Call it when a run is likely soon, e.g. while
 * a model writes a tool that will be verified. Failures are left for the run itself to report.
 */
export function warmSandbox(): void {
  sandboxWorkers().then(
    (workers) => workers.warm(),
    () => undefined,
  );
}

/** What the sandbox's worker pool has done in this process. */
export async function sandboxWorkerStatistics(): Promise<WorkerPoolStatistics> {
  return (await sandboxWorkers()).statisticsNow();
}

/** Ends the idle sandbox workers now; they would end by themselves after a minute unused. */
export async function closeIdleSandboxWorkers(): Promise<void> {
  const workers = await pool?.catch(() => undefined);
  await workers?.closeIdle();
}
