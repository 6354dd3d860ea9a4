/**
 * The messages between the host (main thread) and `sandbox-worker.mjs`. Everything here is plain data;
 * guest values cross only as JSON text, so no object of one side is ever reachable from the other.
 */

/** What a worker runs; each job gets a fresh QuickJS instance (new WebAssembly memory, new runtime). */
export type WorkerJob =
  /** Evaluate a tool module and call its default export with the input. The value is the tool's result. */
  | { readonly kind: 'run-tool'; readonly source: string; readonly inputJson: string }
  /** Evaluate a module without capabilities and describe its exports. The value is a `ModuleInspection`. */
  | { readonly kind: 'inspect-module'; readonly source: string }
  /** Run a test module's default export against a tool module. The value is a `TestRunReport`. */
  | { readonly kind: 'run-test'; readonly toolSource: string; readonly testSource: string };

/** A granted capability as the worker needs it: the name, the guest-side adapter source, and whether its calls count in flight. */
export interface WorkerGrant {
  readonly name: string;
  readonly guestAdapter: string;
  /** False for a capability whose host methods answer at once (see `CapabilityDefinition.answersAtOnce`). */
  readonly countsInFlight: boolean;
}

export interface WorkerLimits {
  /** QuickJS's own limit; it reliably stops single allocations larger than this. */
  readonly memoryBytes: number;
  /** The fixed size of QuickJS's WebAssembly memory, which bounds everything the guest allocates. */
  readonly wasmMemoryBytes: number;
  readonly cpuMs: number;
  readonly stackBytes: number;
  /** Longest JSON text (in UTF-16 code units) a result or a capability call may carry. */
  readonly maxJsonLength: number;
  /** Capability calls sent to the host at once; the worker holds back the rest until replies come. */
  readonly callsInFlight: number;
}

/** What every worker is started with (`workerData`). */
export interface WorkerData {
  /** The QuickJS WebAssembly module, compiled once by the host and shared by every worker. */
  readonly wasmModule: object;
  /** The memory size of the instance a new worker prepares before its first run (the default limits'). */
  readonly preparedWasmMemoryBytes: number;
}

export interface WorkerStartData {
  readonly job: WorkerJob;
  readonly grants: readonly WorkerGrant[];
  /** Every capability name, so touching an ungranted one gives a clear error rather than `undefined`. */
  readonly knownCapabilities: readonly string[];
  readonly limits: WorkerLimits;
}

export interface GuestErrorData {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

/**
 * Why a job ended without a value: the guest threw (`guest-error`), ran out of CPU time (`cpu`) or
 * memory (`memory`), awaited something that can never settle (`stuck`), was not a usable module
 * (`module`), returned something that is not JSON data (`output`), or the worker itself failed (`internal`).
 */
export type WorkerFailureKind = 'guest-error' | 'cpu' | 'memory' | 'stuck' | 'module' | 'output' | 'internal';

export type WorkerOutcome =
  | { readonly ok: true; readonly valueJson: string }
  | { readonly ok: false; readonly failure: WorkerFailureKind; readonly error: GuestErrorData };

export type WorkerToHostMessage =
  | { readonly type: 'capability-call'; readonly id: number; readonly capability: string; readonly method: string; readonly argumentsJson: string }
  | { readonly type: 'finished'; readonly outcome: WorkerOutcome };

/** Hands a worker its next job. A worker waits for it, so it can start before the job exists. */
export interface WorkerStartMessage {
  readonly type: 'start';
  readonly start: WorkerStartData;
}

export type HostToWorkerMessage =
  | { readonly type: 'capability-result'; readonly id: number; readonly ok: true; readonly valueJson: string }
  | { readonly type: 'capability-result'; readonly id: number; readonly ok: false; readonly error: GuestErrorData };
