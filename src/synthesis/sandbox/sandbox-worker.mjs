// @ts-check
/**
 * The sandbox worker: runs jobs one at a time, each in a fresh QuickJS instance, and reports one outcome
 * per job. It never holds a real capability: each `forge.*` call becomes a message to the host, which
 * owns fetch, files and logs, and the reply comes back as JSON text. The guest therefore sees only QuickJS values built from JSON.
 *
 * Plain JavaScript on purpose: Node 20 cannot start a worker from a TypeScript file, and this file has
 * to run unchanged from `src/` (tests) and `dist/` (the build emits it with `allowJs`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { assertionKinds, assertSource } from './guest-assert.mjs';
import { createGuestClock } from './guest-clock.mjs';
import { forgeSource, toolProxySource } from './guest-glue.mjs';
import { createRealm } from './guest-realm.mjs';
import { createHostLink } from './host-link.mjs';
import { JobFailure } from './job-failure.mjs';

/** @typedef {import('quickjs-emscripten').QuickJSRuntime} QuickJSRuntime */
/** @typedef {import('quickjs-emscripten').QuickJSWASMModule} QuickJSWASMModule */
/** @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle */
/** @typedef {import('quickjs-emscripten').QuickJSDeferredPromise} QuickJSDeferredPromise */
/** @typedef {import('./guest-realm.mjs').Realm} Realm */
/** @typedef {import('./worker-protocol.js').WorkerStartData} WorkerStartData */
/** @typedef {import('./worker-protocol.js').WorkerOutcome} WorkerOutcome */
/** @typedef {import('./worker-protocol.js').WorkerFailureKind} WorkerFailureKind */
/** @typedef {import('./worker-protocol.js').GuestErrorData} GuestErrorData */
/** @typedef {import('./worker-protocol.js').WorkerToHostMessage} WorkerToHostMessage */

const maximumAssertions = 1000;
// Every forge call is a message the host must serve; a guest calling in a tight loop must not flood it.
const maximumCapabilityCalls = 10_000;

const port = parentPort;
if (port === null) throw new Error('sandbox-worker.mjs must run as a worker thread');
/** The QuickJS WebAssembly module, compiled once by the host; every run instantiates it afresh. */
const { wasmModule, preparedWasmMemoryBytes } = /** @type {import('./worker-protocol.js').WorkerData} */ (workerData);

/**
 * The link of the run in progress. Capability replies are routed to it; a reply that arrives between
 * runs (the host answered just before it learned the run had ended) belongs to no run and is dropped.
 * @type {ReturnType<typeof createHostLink> | undefined}
 */
let currentLink;
/** @type {((start: WorkerStartData) => void) | undefined} */
let startWaiter;
/** @type {WorkerStartData[]} */
const startQueue = [];
port.on('message', (/** @type {import('./worker-protocol.js').WorkerStartMessage | import('./worker-protocol.js').HostToWorkerMessage} */ message) => {
  if (message.type === 'start') {
    if (startWaiter === undefined) startQueue.push(message.start);
    else startWaiter(message.start);
    startWaiter = undefined;
  } else {
    currentLink?.deliver(message);
  }
});

// The worker waits for its runs (it may be started before the first exists, as a warm spare) and serves
// them one at a time, each in a fresh QuickJS instance, until the host ends it. While it waits, it
// prepares the next instance, sized like the last run's, so a run seldom waits for instantiation.
/** @type {{ wasmMemoryBytes: number, quickjs: Promise<QuickJSWASMModule> } | undefined} */
let prepared;
prepare(preparedWasmMemoryBytes);
for (;;) {
  const start = startQueue.shift() ?? (await /** @type {Promise<WorkerStartData>} */ (new Promise((resolve) => (startWaiter = resolve))));
  const { wasmMemoryBytes } = start.limits;
  const quickjs = takeInstance(wasmMemoryBytes);
  currentLink = createHostLink(port, start.limits.callsInFlight);
  const outcome = await runJob(start, quickjs, currentLink).catch(describeInternalFailure);
  currentLink = undefined;
  port.postMessage(/** @type {WorkerToHostMessage} */ ({ type: 'finished', outcome }));
  prepare(wasmMemoryBytes);
}

/**
 * Starts instantiating the next run's QuickJS. One that fails is dropped: the run instantiates again and reports it.
 * @param {number} wasmMemoryBytes
 */
function prepare(wasmMemoryBytes) {
  const next = { wasmMemoryBytes, quickjs: newQuickJsInstance(wasmMemoryBytes) };
  next.quickjs.catch(() => {
    if (prepared === next) prepared = undefined;
  });
  prepared = next;
}

/**
 * The instance for a run: the prepared one when its memory size fits, else a new one. Either way it is
 * no longer prepared: an instance serves exactly one run.
 * @param {number} wasmMemoryBytes @returns {Promise<QuickJSWASMModule>}
 */
function takeInstance(wasmMemoryBytes) {
  const ready = prepared?.wasmMemoryBytes === wasmMemoryBytes ? prepared.quickjs : undefined;
  prepared = undefined;
  return ready ?? newQuickJsInstance(wasmMemoryBytes);
}

/**
 * A QuickJS instance of its own: a new WebAssembly instance with new linear memory, so nothing a previous
 * run left behind, not even freed memory, is there for the next one. The fixed-size linear memory is the
 * real memory cap: this QuickJS build cannot measure its allocations (emscripten reports no usable size),
 * so its own limit stops single large allocations but not many small ones. Memory that cannot grow makes
 * malloc fail, which QuickJS raises as "out of memory".
 * @param {number} wasmMemoryBytes @returns {Promise<QuickJSWASMModule>}
 */
function newQuickJsInstance(wasmMemoryBytes) {
  const pages = Math.ceil(wasmMemoryBytes / 65536);
  const webAssembly = /** @type {{ Memory: new (descriptor: { initial: number, maximum: number }) => object }} */ (
    /** @type {Record<string, unknown>} */ (globalThis)['WebAssembly']
  );
  /** @typedef {import('quickjs-emscripten').CustomizeVariantOptions} VariantOptions */
  return newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, {
      wasmModule: /** @type {VariantOptions['wasmModule']} */ (wasmModule),
      wasmMemory: /** @type {VariantOptions['wasmMemory']} */ (new webAssembly.Memory({ initial: pages, maximum: pages })),
    }),
  );
}

/**
 * One run in its own QuickJS instance, with a new runtime.
 * @param {WorkerStartData} start @param {Promise<QuickJSWASMModule>} instance
 * @param {ReturnType<typeof createHostLink>} host @returns {Promise<WorkerOutcome>}
 */
async function runJob(start, instance, host) {
  const quickjs = await instance;
  const sandbox = createSandbox(quickjs.newRuntime(), start, host);
  const { job } = start;
  try {
    if (job.kind === 'run-tool') return { ok: true, valueJson: await sandbox.runTool(job.source, job.inputJson) };
    if (job.kind === 'inspect-module') return { ok: true, valueJson: await sandbox.inspectModule(job.source) };
    return { ok: true, valueJson: await sandbox.runTest(job.toolSource, job.testSource) };
  } catch (error) {
    if (error instanceof JobFailure) return { ok: false, failure: error.failure, error: error.error };
    throw error;
  }
}

/** @param {unknown} error @returns {WorkerOutcome} */
function describeInternalFailure(error) {
  // A guest can drive QuickJS's C stack into V8's own limit before QuickJS notices; that surfaces here.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { ok: false, failure: 'guest-error', error: { name: 'RangeError', message: 'stack overflow: the guest recursed too deeply' } };
  }
  return {
    ok: false,
    failure: 'internal',
    error: { name: 'SandboxCrashError', message: `The sandbox worker failed: ${error instanceof Error ? error.message : String(error)}` },
  };
}

/**
 * @param {QuickJSRuntime} runtime @param {WorkerStartData} start
 * @param {ReturnType<typeof createHostLink>} host the link to the host for this run's capability calls
 */
function createSandbox(runtime, start, host) {
  const { limits } = start;
  const clock = createGuestClock(limits.cpuMs);
  /** A failure raised inside a host function the guest called; it ends the job at the next step. */
  /** @type {JobFailure | undefined} */
  let fatal;
  /** @type {Realm[]} */
  const realms = [];
  let capabilityCalls = 0;
  /** Tool calls made by a test whose tool promise has not been forwarded yet. */
  /** @type {Array<{ tool: Realm, promise: QuickJSHandle, test: Realm, deferred: QuickJSDeferredPromise }>} */
  const pendingToolCalls = [];

  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(() => clock.shouldInterrupt());
  runtime.setModuleLoader((name) => ({
    error: new Error(`imports are not available in the Forge sandbox (tried to import "${name}"); use only what run(input, forge) receives`),
  }));

  /** @param {string} label */
  function newRealm(label) {
    const realm = createRealm(runtime, clock, classify, label, limits);
    realms.push(realm);
    return realm;
  }

  /**
   * Classifies a failure by what the runtime knows, not by what the guest claims: once the interrupt
   * flag is up the CPU budget ran out, whatever error surfaced.
   * @param {WorkerFailureKind} failure @param {GuestErrorData} error
   */
  function classify(failure, error) {
    if (clock.exceeded) {
      return new JobFailure('cpu', {
        name: 'SandboxTimeoutError',
        message: `The guest used more than its ${limits.cpuMs} ms of CPU time (limits.cpuMs) and was interrupted.`,
      });
    }
    if (error.name === 'InternalError' && error.message === 'out of memory') {
      return new JobFailure('memory', {
        name: 'SandboxMemoryError',
        message: `The guest exceeded its memory limit of ${limits.memoryBytes} bytes (limits.memoryBytes).`,
      });
    }
    if (failure === 'module') return new JobFailure('module', { ...error, message: `the module did not load: ${error.message}` });
    return new JobFailure(failure, error);
  }

  /**
   * Wraps a host function the guest calls. QuickJS would turn anything it throws into a guest error the
   * guest could catch; failures that must end the run (out of time, out of memory) are kept aside too.
   * @template {unknown[]} Args @template Result
   * @param {(...callArguments: Args) => Result} implementation @returns {(...callArguments: Args) => Result}
   */
  function hostFunction(implementation) {
    return (...callArguments) => {
      try {
        return implementation(...callArguments);
      } catch (error) {
        if (error instanceof JobFailure && error.failure !== 'guest-error' && error.failure !== 'output') fatal ??= error;
        throw error;
      }
    };
  }

  /** Moves the results of settled tool promises into the test's context, as JSON or as an error. */
  function forwardToolResults() {
    for (let index = pendingToolCalls.length - 1; index >= 0; index--) {
      const pending = /** @type {(typeof pendingToolCalls)[number]} */ (pendingToolCalls[index]);
      const state = pending.tool.context.getPromiseState(pending.promise);
      if (state.type === 'pending') continue;
      pendingToolCalls.splice(index, 1);
      /** @type {{ json: string } | { error: GuestErrorData }} */
      let settled;
      if (state.type === 'fulfilled') {
        try {
          settled = { json: pending.tool.toJson(state.value, 'the value run() returned') };
        } catch (error) {
          if (!(error instanceof JobFailure) || error.failure !== 'output') throw error;
          settled = { error: error.error };
        } finally {
          if (!state.notAPromise) state.value.dispose();
        }
      } else {
        settled = { error: pending.tool.describe(state.error) };
        state.error.dispose();
      }
      const { test, deferred } = pending;
      clock.run(() => {
        // Resolved with the value itself, parsed by the context's own JSON.parse (kept before any guest code
        // ran), so the test sees what the tool returned without any of its built-ins in between.
        if ('json' in settled) test.fromJson(settled.json).consume((value) => deferred.resolve(value));
        else test.context.newError({ name: settled.error.name, message: settled.error.message }).consume((error) => deferred.reject(error));
      });
      deferred.dispose();
      pending.promise.dispose();
    }
  }

  /**
   * Runs the guest until `isDone()`, or until nothing can change any more: no job queued, no capability
   * call in flight, no tool call able to progress. From then on every pending guest promise stays pending
   * forever, so `quiet` is reported at once instead of waiting for a deadline.
   * @param {() => boolean} isDone @returns {Promise<'done' | 'quiet'>}
   */
  async function drive(isDone) {
    for (;;) {
      if (fatal !== undefined) throw fatal;
      if (clock.exceeded) throw classify('guest-error', { name: 'InternalError', message: 'interrupted' });
      forwardToolResults();
      if (isDone()) return 'done';
      if (runtime.hasPendingJob()) {
        const executed = clock.run(() => runtime.executePendingJobs());
        if (executed.error !== undefined) {
          const failed = executed.error;
          const realm = realms.find((candidate) => candidate.context === failed.context);
          const error = realm === undefined ? { name: 'InternalError', message: 'a queued job failed' } : realm.describe(failed);
          failed.dispose();
          throw classify('guest-error', error);
        }
        continue;
      }
      if (host.inFlight > 0) {
        await host.nextReply();
        continue;
      }
      return 'quiet';
    }
  }

  /**
   * Waits for a guest promise (a plain value is taken as is) and returns its value, or throws a
   * JobFailure for a rejection or for a promise that can never settle. Consumes `promise`.
   * @param {Realm} realm @param {QuickJSHandle} promise @param {WorkerFailureKind} failure
   * @returns {Promise<QuickJSHandle>}
   */
  async function settle(realm, promise, failure) {
    if ((await drive(() => realm.isSettled(promise))) === 'quiet') {
      promise.dispose();
      const culprit = pendingToolCalls.length > 0 ? 'tool.js (called by test.js)' : `${realm.label}.js`;
      throw new JobFailure('stuck', {
        name: 'SandboxStuckError',
        message:
          `${culprit} awaits a promise that can never settle: no job is queued, no capability call is in flight and ` +
          'nothing else could resolve it (a promise nobody resolves, or one left pending by an interrupted call).',
      });
    }
    const state = realm.context.getPromiseState(promise);
    if (state.type === 'fulfilled') {
      if (state.notAPromise) return promise;
      promise.dispose();
      return state.value;
    }
    promise.dispose();
    if (state.type === 'rejected') {
      const error = realm.describe(state.error);
      state.error.dispose();
      throw classify(failure, error);
    }
    throw new Error('a settled promise reported itself pending');
  }

  /** @param {Realm} realm @param {string} source */
  async function loadModule(realm, source) {
    return settle(realm, realm.evaluateModule(source, `${realm.label}.js`), 'module');
  }

  /**
   * Builds the guest's `forge`: one adapter per granted capability, each given a `call` that sends JSON
   * to the host; any other known capability name throws CapabilityNotGrantedError when touched.
   * @param {Realm} realm
   */
  function createForge(realm) {
    const { context } = realm;
    const grants = context.newArray();
    start.grants.forEach((grant, index) => {
      const adapter = realm.evaluateScript(`(${grant.guestAdapter})`, `forge-${grant.name}.js`);
      const send = context.newFunction(
        grant.name,
        hostFunction((methodHandle, argumentsHandle) => {
          const method = context.getString(methodHandle);
          const argumentsJson = context.getString(argumentsHandle);
          if (argumentsJson.length > limits.maxJsonLength) {
            throw new Error(`the arguments to forge.${grant.name} are ${argumentsJson.length} characters of JSON; at most ${limits.maxJsonLength} are allowed`);
          }
          if (++capabilityCalls > maximumCapabilityCalls) {
            throw new Error(`this run already made ${maximumCapabilityCalls} forge calls, the most one run may make`);
          }
          const deferred = context.newPromise();
          host.request({ capability: grant.name, method, argumentsJson, counted: grant.countsInFlight }, (reply) => {
            try {
              clock.run(() => {
                if (reply.ok) context.newString(reply.valueJson).consume((text) => deferred.resolve(text));
                else context.newError({ name: reply.error.name, message: reply.error.message }).consume((error) => deferred.reject(error));
              });
            } catch (error) {
              fatal ??= classify('internal', { name: 'SandboxCrashError', message: error instanceof Error ? error.message : String(error) });
            } finally {
              deferred.dispose();
            }
          });
          return deferred.handle;
        }),
      );
      const entry = context.newArray();
      context.newString(grant.name).consume((name) => context.setProp(entry, 0, name));
      context.setProp(entry, 1, adapter);
      context.setProp(entry, 2, send);
      context.setProp(grants, index, entry);
      for (const handle of [entry, adapter, send]) handle.dispose();
    });
    const known = realm.fromJson(JSON.stringify(start.knownCapabilities));
    const factory = realm.evaluateScript(forgeSource, 'forge.js');
    const forge = realm.call(factory, [known, grants], 'internal');
    for (const handle of [known, grants, factory]) handle.dispose();
    return forge;
  }

  return {
    /** @param {string} source @param {string} inputJson */
    async runTool(source, inputJson) {
      const tool = newRealm('tool');
      // The harness's glue is in place, with its own references to the built-ins, before any guest code runs.
      const forge = createForge(tool);
      const run = tool.defaultExport(await loadModule(tool, source), 'async function run(input, forge)');
      const input = tool.fromJson(inputJson);
      const result = await settle(tool, tool.invoke(run, input, forge), 'guest-error');
      return tool.toJson(result, 'the value run() returned');
    },

    /** @param {string} source */
    async inspectModule(source) {
      const tool = newRealm('tool');
      return tool.inspect(await loadModule(tool, source));
    },

    /** @param {string} toolSource @param {string} testSource */
    async runTest(toolSource, testSource) {
      const tool = newRealm('tool');
      const test = newRealm('test');
      /** @type {Array<{ kind: string, passed: boolean, message: string, actual?: string, expected?: string }>} */
      const assertions = [];
      let assertionsDropped = 0;
      let toolCalls = 0;
      /** @type {QuickJSHandle | undefined} the tool's run(), once its module has loaded */
      let run;

      // The assertion library, the tool proxy and forge are built before either module is evaluated, so
      // they hold the built-ins as they were: a test that patches its context's prototypes at the top
      // level cannot change how its assertions are judged (see guest-assert.mjs).
      const forge = createForge(tool);
      const record = test.context.newFunction(
        'record',
        hostFunction((kindHandle, passedHandle, messageHandle, actualHandle, expectedHandle) => {
          const { context } = test;
          if (context.typeof(kindHandle) !== 'string' || context.typeof(passedHandle) !== 'boolean') return;
          const kind = context.getString(kindHandle);
          if (!assertionKinds.has(kind)) return;
          if (assertions.length >= maximumAssertions) {
            assertionsDropped++;
            return;
          }
          const text = (/** @type {QuickJSHandle} */ handle) => (context.typeof(handle) === 'string' ? context.getString(handle).slice(0, 2000) : undefined);
          const actual = text(actualHandle);
          const expected = text(expectedHandle);
          assertions.push({
            kind,
            passed: context.sameValue(passedHandle, context.true),
            message: text(messageHandle) ?? '',
            ...(actual === undefined ? {} : { actual }),
            ...(expected === undefined ? {} : { expected }),
          });
        }),
      );
      const isPromise = test.context.newFunction(
        'isPromise',
        hostFunction((valueHandle) => (test.isPromise(valueHandle) ? test.context.true : test.context.false)),
      );
      const assert = test.call(test.evaluateScript(assertSource, 'assert.js'), [record, isPromise], 'internal');
      for (const handle of [record, isPromise]) handle.dispose();

      const send = test.context.newFunction(
        'tool',
        hostFunction((inputHandle) => {
          toolCalls++;
          const inputJson = test.context.typeof(inputHandle) === 'string' ? test.context.getString(inputHandle) : undefined;
          const promise = tool.fromJson(inputJson).consume((input) => tool.invoke(/** @type {QuickJSHandle} */ (run), input, forge));
          const deferred = test.context.newPromise();
          pendingToolCalls.push({ tool, promise, test, deferred });
          return deferred.handle;
        }),
      );
      const toolProxy = test.call(test.evaluateScript(toolProxySource, 'tool-proxy.js'), [send], 'internal');

      run = tool.defaultExport(await loadModule(tool, toolSource), 'async function run(input, forge)');
      const testFunction = test.defaultExport(await loadModule(test, testSource), 'async function test(tool, assert)');

      /** @type {{ resolved: boolean, error?: GuestErrorData }} */
      let verdict;
      try {
        (await settle(test, test.invoke(testFunction, toolProxy, assert), 'guest-error')).dispose();
        verdict = { resolved: true };
      } catch (error) {
        if (!(error instanceof JobFailure) || error.failure !== 'guest-error') throw error;
        verdict = { resolved: false, error: error.error };
      }
      // Assertions the test started without awaiting still finish, and still count.
      await drive(() => false);
      return JSON.stringify({ ...verdict, assertions, assertionsDropped, toolCalls });
    },
  };
}
