import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { SandboxSetupError } from './sandbox-setup-error.js';

// The project's lib settings carry no WebAssembly typings; this is the one call used here.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

let compiled: Promise<object> | undefined;

/**
 * The QuickJS WebAssembly module, compiled once per process and handed to every worker, so a run pays
 * for instantiation (a fresh runtime) but not for compilation.
 */
export function quickJsWasmModule(): Promise<object> {
  compiled ??= compileQuickJs().catch((error: unknown) => {
    compiled = undefined;
    throw new SandboxSetupError(`Could not compile the QuickJS WebAssembly module: ${error instanceof Error ? error.message : String(error)}`);
  });
  return compiled;
}

async function compileQuickJs(): Promise<object> {
  // Resolved from quickjs-emscripten's own location: the variant is its dependency, not ours.
  const quickJsEntry = createRequire(import.meta.url).resolve('quickjs-emscripten');
  const wasmPath = createRequire(quickJsEntry).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
  return WebAssembly.compile(await readFile(wasmPath));
}
