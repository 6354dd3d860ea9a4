import type { GuardedFetch } from '../../core/index.js';
import type { JsonValue } from './json-value.js';

/** The capabilities a tool may declare. The registry in `capabilities.ts` defines each one. */
export type CapabilityName = 'fetch' | 'fs' | 'log';

/** The real resources the host lends to a run. A capability can be granted only when its resource is here. */
export interface HostCapabilities {
  /** The SSRF-guarded fetch behind `forge.fetch`. */
  readonly fetch?: GuardedFetch;
  /** The tool's own folder behind `forge.fs`; created on the first write. */
  readonly jailRoot?: string;
}

/** What a host capability sees of the run it serves. */
export interface CapabilityRun {
  /** Aborted when the run ends (result, deadline or crash); long operations must honour it. */
  readonly signal: AbortSignal;
  /** Adds one line to the run's logs (the run applies the caps). */
  appendLog(line: string): void;
}

/**
 * One host-side operation the guest can request. It receives the guest's arguments as parsed JSON (never
 * trusted: it validates them) and returns plain data. A `ForgeError` it throws reaches the guest by name
 * and message; any other error reaches it only as a generic failure, so host details never leak.
 */
export type HostMethod = (callArguments: readonly unknown[]) => Promise<JsonValue> | JsonValue;

/**
 * A capability, complete: what the author model is told (`description`, `signature`), how the guest sees
 * it (`guestAdapter`), and what the host does (`createHostMethods`). Adding a capability means adding one
 * of these to the registry; the prompt, the worker and the host all follow from it.
 */
export interface CapabilityDefinition {
  readonly name: CapabilityName;
  /** What it does and its limits, in sentences the author model reads. */
  readonly description: string;
  /** The exact TypeScript-style signatures of its `forge.*` members, one per line, as shown in the author prompt. */
  readonly signature: string;
  /**
   * JavaScript source of a function `(call) => member`, evaluated inside the guest before any guest code
   * runs; its result becomes `forge[name]`. `call(method, callArguments)` sends `callArguments` as JSON to the host method of
   * that name and resolves with its JSON result, so the adapter only shapes plain data.
   */
  readonly guestAdapter: string;
  /**
   * True when every host method answers at once and leaves nothing under way on the host (a log line):
   * its calls then bypass `limits.callsInFlight`, so fire-and-forget calls a guest makes just before it
   * returns are still served. Capabilities that do real work (requests, file operations) leave it out.
   */
  readonly answersAtOnce?: true;
  /**
   * Builds the host methods for one run. Throws `SandboxSetupError` when the resource it needs is missing
   * from `resources`, so a misconfigured grant fails before the guest starts.
   */
  createHostMethods(resources: HostCapabilities, run: CapabilityRun): Readonly<Record<string, HostMethod>>;
}
