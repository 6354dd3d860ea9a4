import { SandboxSetupError } from './sandbox-setup-error.js';

/**
 * What one sandbox run may consume. Every run gets all of them. A guest that exceeds memory, CPU or wall
 * time ends with a result that says which (`timedOut` or `memoryExceeded`), never with a hang; the two
 * capability limits bound what the guest can make the host do for it.
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
  /**
   * `forge.*` calls the host serves for this run at once. Further calls wait their turn inside the worker,
   * so a guest that starts hundreds of fetches together still has only this many under way.
   */
  readonly callsInFlight: number;
  /**
   * Bytes the run may move through its capabilities: the arguments it sends (request bodies, file text)
   * plus the results it receives (response bodies, file contents), as UTF-8 JSON. A call that would pass
   * it is refused with `CapabilityBudgetError`, and no call starts once it is spent.
   */
  readonly capabilityBytes: number;
}

export const defaultSandboxLimits: SandboxLimits = {
  memoryBytes: 32 * 1024 * 1024,
  cpuMs: 2_000,
  wallMs: 15_000,
  callsInFlight: 4,
  capabilityBytes: 32 * 1024 * 1024,
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
  for (const key of ['callsInFlight', 'capabilityBytes'] as const) {
    if (!Number.isSafeInteger(resolved[key]) || resolved[key] <= 0) {
      throw new SandboxSetupError(`limits.${key} must be a positive whole number; got ${resolved[key]}.`);
    }
  }
  return resolved;
}
