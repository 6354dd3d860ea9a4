import { ForgeError } from '../../core/index.js';
import { CapabilityInputError } from './capability-arguments.js';
import { createCapabilityBudget } from './capability-budget.js';
import { capabilityNames, capabilityRegistry, isCapabilityName, sortCapabilityNames } from './capabilities.js';
import type { CapabilityName, HostCapabilities, HostMethod } from './capability-definition.js';
import { createGuestLog } from './guest-log.js';
import type { JsonValue } from './json-value.js';
import type { SandboxLimits } from './sandbox-limits.js';
import type { SandboxErrorData, SandboxResult } from './sandbox-result.js';
import { SandboxSetupError } from './sandbox-setup-error.js';
import { sandboxWorkers, wasmMemoryBytesFor } from './sandbox-workers.js';
// The worker's own JavaScript heap (WORKER_HEAP_MB): the guest heap lives in WebAssembly memory and is bounded separately.
import { WORKER_HEAP_MB } from './worker-pool.js';
import type { HostToWorkerMessage, WorkerFailureKind, WorkerJob, WorkerOutcome, WorkerStartData, WorkerStartMessage, WorkerToHostMessage } from './worker-protocol.js';

export interface WorkerJobOptions {
  readonly job: WorkerJob;
  /** Capabilities the guest may call; the host serves these and refuses every other request. */
  readonly capabilities: readonly CapabilityName[];
  readonly hostCapabilities: HostCapabilities;
  readonly limits: SandboxLimits;
}

// QuickJS's own stack limit (512 KiB) sits well inside the worker's V8 stack (WORKER_STACK_MB), so deep
// guest recursion ends as a guest RangeError rather than a host stack overflow.
const guestStackBytes = 512 * 1024;
const maximumJsonLength = 1_000_000;

/**
 * Runs one job in a pooled worker thread (a fresh QuickJS instance inside it) and turns whatever happens
 * into a `SandboxResult`. The host side of every capability lives here: the worker asks, this serves only
 * granted capabilities and records which were used. The wall deadline is enforced here by terminating
 * the worker; so is any ending that leaves the worker in doubt, and such a worker never serves again.
 * Throws `SandboxSetupError` only when the run cannot start; guest behaviour never throws.
 */
export async function runWorkerJob(options: WorkerJobOptions): Promise<SandboxResult> {
  const { job, hostCapabilities, limits } = options;
  const granted = grantedCapabilities(options.capabilities);
  const logs = createGuestLog();
  const lifetime = new AbortController();
  const hostMethods = new Map(
    granted.map((name) => [name, capabilityRegistry[name].createHostMethods(hostCapabilities, { signal: lifetime.signal, appendLog: logs.append })]),
  );
  const workers = await sandboxWorkers();
  const startData: WorkerStartData = {
    job,
    grants: granted.map((name) => ({ name, guestAdapter: capabilityRegistry[name].guestAdapter, countsInFlight: capabilityRegistry[name].answersAtOnce !== true })),
    knownCapabilities: capabilityNames,
    limits: {
      memoryBytes: limits.memoryBytes,
      wasmMemoryBytes: wasmMemoryBytesFor(limits.memoryBytes),
      cpuMs: limits.cpuMs,
      stackBytes: guestStackBytes,
      maxJsonLength: maximumJsonLength,
      callsInFlight: limits.callsInFlight,
    },
  };
  const budget = createCapabilityBudget(limits.capabilityBytes);
  const used = new Set<CapabilityName>();
  const inFlight = new Map<number, CapabilityName>();
  let countedInFlight = 0;
  // Waiting for a free worker is not the guest's time: the wall deadline starts once a worker is ours.
  const lease = await workers.lease();
  const startedAt = performance.now();
  const { worker } = lease;
  worker.postMessage({ type: 'start', start: startData } satisfies WorkerStartMessage);

  return new Promise<SandboxResult>((resolve) => {
    let finished = false;
    const finish = (ending: WorkerJobEnding) => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      lifetime.abort();
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      const { workerReusable, ...rest } = ending;
      const result = { logs: logs.lines(), capabilitiesUsed: sortCapabilityNames(used), durationMs: performance.now() - startedAt, ...rest };
      if (workerReusable === true) {
        lease.release();
        resolve(result);
      } else {
        void lease.discard().finally(() => resolve(result));
      }
    };

    const deadline = setTimeout(() => {
      const waitingOn = sortCapabilityNames(inFlight.values());
      finish({
        ok: false,
        timedOut: true,
        error: {
          name: 'SandboxTimeoutError',
          message:
            `The run did not finish within ${limits.wallMs} ms (limits.wallMs); the worker was terminated` +
            (waitingOn.length === 0 ? '.' : ` while waiting on ${waitingOn.map((name) => `forge.${name}`).join(', ')}.`),
        },
      });
    }, limits.wallMs);

    const reply = (message: HostToWorkerMessage) => {
      if (!finished) worker.postMessage(message);
    };

    const serve = async (call: Extract<WorkerToHostMessage, { type: 'capability-call' }>) => {
      // A run that has ended starts no more host work, whatever was still queued for it.
      if (finished) return;
      const methods = isCapabilityName(call.capability) ? hostMethods.get(call.capability) : undefined;
      if (methods === undefined || !isCapabilityName(call.capability)) {
        reply({ type: 'capability-result', id: call.id, ok: false, error: { name: 'CapabilityNotGrantedError', message: `The "${call.capability}" capability was not granted to this run.` } });
        return;
      }
      const member = memberName(call.capability, call.method);
      const counted = capabilityRegistry[call.capability].answersAtOnce !== true;
      // The worker holds back calls past the limit; one that arrives anyway is refused, not queued here.
      if (counted && countedInFlight >= limits.callsInFlight) {
        reply({ type: 'capability-result', id: call.id, ok: false, error: { name: 'CapabilityInputError', message: `${member}: more than ${limits.callsInFlight} calls in flight (limits.callsInFlight).` } });
        return;
      }
      used.add(call.capability);
      inFlight.set(call.id, call.capability);
      if (counted) countedInFlight += 1;
      try {
        budget.ensureLeft(member);
        budget.charge(Buffer.byteLength(call.argumentsJson), member);
        const value = await invokeHostMethod(methods, call.capability, call.method, call.argumentsJson);
        const valueJson = JSON.stringify(value);
        budget.charge(Buffer.byteLength(valueJson), member);
        reply({ type: 'capability-result', id: call.id, ok: true, valueJson });
      } catch (error) {
        reply({ type: 'capability-result', id: call.id, ok: false, error: errorForGuest(error, member) });
      } finally {
        inFlight.delete(call.id);
        if (counted) countedInFlight -= 1;
      }
    };

    const onMessage = (message: WorkerToHostMessage) => {
      if (message.type === 'capability-call') void serve(message);
      else finish(endingFromOutcome(message.outcome));
    };
    const onError = (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        finish({
          ok: false,
          memoryExceeded: true,
          error: { name: 'SandboxMemoryError', message: `The sandbox worker ran out of its ${WORKER_HEAP_MB} MiB heap and was terminated.` },
        });
        return;
      }
      finish({ ok: false, error: { name: 'SandboxCrashError', message: `The sandbox worker failed: ${error.message}` } });
    };
    const onExit = (code: number) => {
      finish({ ok: false, error: { name: 'SandboxCrashError', message: `The sandbox worker exited (code ${code}) before reporting a result.` } });
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

function grantedCapabilities(requested: readonly string[]): CapabilityName[] {
  const unknown = requested.filter((name) => !isCapabilityName(name));
  if (unknown.length > 0) {
    throw new SandboxSetupError(`Unknown capabilities: ${unknown.join(', ')}. Known capabilities: ${capabilityNames.join(', ')}.`);
  }
  return sortCapabilityNames(requested as CapabilityName[]);
}

async function invokeHostMethod(
  methods: Readonly<Record<string, HostMethod>>,
  capability: CapabilityName,
  method: string,
  argumentsJson: string,
): Promise<JsonValue> {
  const implementation = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (implementation === undefined) throw new CapabilityInputError(`forge.${capability}`, `has no operation "${method}"`);
  const callArguments: unknown = JSON.parse(argumentsJson);
  if (!Array.isArray(callArguments)) throw new CapabilityInputError(`forge.${capability}.${method}`, 'the arguments must arrive as a list');
  return implementation(callArguments);
}

/** How the guest calls a member: `forge.fetch` for a capability that is one function, `forge.fs.readFile` otherwise. */
function memberName(capability: CapabilityName, method: string): string {
  return method === capability ? `forge.${capability}` : `forge.${capability}.${method}`;
}

/**
 * What the guest learns about a failed capability call: a `ForgeError`'s name and message (written for
 * it), or for anything else only that the operation failed, since host errors can name host paths.
 */
function errorForGuest(error: unknown, member: string): SandboxErrorData {
  if (ForgeError.isInstance(error)) return { name: error.name, message: error.message };
  if (error instanceof Error && error.name === 'AbortError') return { name: 'AbortError', message: `${member} was aborted because the run ended.` };
  return { name: 'Error', message: `${member} failed unexpectedly.` };
}

/**
 * How a job ended, and whether its worker may serve another run: only when the worker itself reported an
 * ordinary ending (a value, or a guest that threw, was not a usable module or returned non-JSON). After a
 * CPU or memory limit, a stuck guest or an internal failure the worker is ended rather than trusted.
 */
type WorkerJobEnding =
  | { ok: true; value: JsonValue; workerReusable?: true }
  | { ok: false; error: SandboxErrorData; timedOut?: true; memoryExceeded?: true; workerReusable?: true };

const reusableFailures: ReadonlySet<WorkerFailureKind> = new Set<WorkerFailureKind>(['guest-error', 'module', 'output']);

function endingFromOutcome(outcome: WorkerOutcome): WorkerJobEnding {
  if (outcome.ok) return { ok: true, value: JSON.parse(outcome.valueJson) as JsonValue, workerReusable: true };
  if (outcome.failure === 'cpu') return { ok: false, error: outcome.error, timedOut: true };
  if (outcome.failure === 'memory') return { ok: false, error: outcome.error, memoryExceeded: true };
  return { ok: false, error: outcome.error, ...(reusableFailures.has(outcome.failure) ? { workerReusable: true as const } : {}) };
}
