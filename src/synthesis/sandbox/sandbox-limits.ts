import { SandboxSetupError } from './sandbox-setup-error.js';

/**
 * What one sandbox run may consume. Every run gets all three; a guest that exceeds one ends with a
 * result that says which (`timedOut` or `memoryExceeded`), never with a hang.
 */
export interface SandboxLimits {
  /**
   * Bytes the guest may allocate: its objects, strings and the capability results it receives. Enforced
   * twice: QuickJS refuses any single allocation above it, and QuickJS's WebAssembly memory is fixed at
   * this plus a constant overhead for its own data and stack, so the total cannot grow past it either.
   * That memory cannot be smaller than 16 MiB, so limits below about 10 MiB bound single allocations
   * exactly but the total only at that floor.
   */
  readonly memoryBytes: number;
  /**
   * Milliseconds the guest may spend running JavaScript (measured on the worker's clock while guest code
   * runs), enforced by QuickJS's interrupt handler. Waiting for a capability (a slow server, say) does
   * not count; `wallMs` bounds that.
   */
  readonly cpuMs: number;
  /**
   * Milliseconds from starting the worker to the result, waits included. When it passes, the host
   * terminates the worker thread, whatever the guest or the worker is doing.
   */
  readonly wallMs: number;
}

export const defaultSandboxLimits: SandboxLimits = {
  memoryBytes: 32 * 1024 * 1024,
  cpuMs: 2_000,
  wallMs: 15_000,
};

/** QuickJS needs about this much to create its contexts at all; lower limits could never run a tool. */
const minimumMemoryBytes = 2 * 1024 * 1024;

/** Fills in defaults and refuses limits no run could meet. Throws `SandboxSetupError`. */
export function resolveSandboxLimits(limits: Partial<SandboxLimits> = {}): SandboxLimits {
  const resolved = { ...defaultSandboxLimits, ...limits };
  if (!Number.isFinite(resolved.memoryBytes) || resolved.memoryBytes < minimumMemoryBytes) {
    throw new SandboxSetupError(`limits.memoryBytes must be at least ${minimumMemoryBytes}; got ${resolved.memoryBytes}.`);
  }
  for (const key of ['cpuMs', 'wallMs'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] <= 0) {
      throw new SandboxSetupError(`limits.${key} must be a positive number of milliseconds; got ${resolved[key]}.`);
    }
  }
  return resolved;
}
