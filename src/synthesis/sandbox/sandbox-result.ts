import type { CapabilityName } from './capability-definition.js';
import type { JsonValue } from './json-value.js';

/** An error as plain data: the guest's own (`TypeError`, `NetworkBlockedError`, …) or the sandbox's. */
export interface SandboxErrorData {
  readonly name: string;
  readonly message: string;
  /** The guest's stack trace when it had one (file names are `tool.js` and `test.js`). */
  readonly stack?: string;
}

/** What every run records, whatever its end. */
export interface SandboxRunRecord {
  /** Lines the guest logged through `forge.log`, in order, capped. */
  readonly logs: readonly string[];
  /** Capabilities the guest actually called (not merely was granted), in registry order. */
  readonly capabilitiesUsed: readonly CapabilityName[];
  /** From starting the worker to the result, worker start-up included. */
  readonly durationMs: number;
}

/**
 * The outcome of one sandbox run, as plain data. A guest never makes the host throw: whatever it does
 * (throw, loop forever, exhaust memory, await forever, try to escape) ends here with `ok: false` and an
 * error that says what happened. Sandbox errors are named `SandboxTimeoutError` (`timedOut`: CPU budget
 * or wall deadline), `SandboxMemoryError` (`memoryExceeded`), `SandboxStuckError` (awaits something that
 * can never settle), `SandboxModuleError` (not a usable module), `SandboxOutputError` (result is not
 * JSON data or too large) and `SandboxCrashError` (the worker itself failed).
 */
export type SandboxResult<Value = JsonValue> =
  | (SandboxRunRecord & { readonly ok: true; readonly value: Value })
  | (SandboxRunRecord & {
      readonly ok: false;
      readonly error: SandboxErrorData;
      readonly timedOut?: true;
      readonly memoryExceeded?: true;
    });
