// @ts-check
import { intrinsicsSource } from './guest-glue.mjs';
import { JobFailure } from './job-failure.mjs';

/** @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext */
/** @typedef {import('quickjs-emscripten').QuickJSRuntime} QuickJSRuntime */
/** @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle */
/** @typedef {import('./worker-protocol.js').WorkerFailureKind} WorkerFailureKind */
/** @typedef {import('./worker-protocol.js').GuestErrorData} GuestErrorData */

/** @typedef {ReturnType<typeof createRealm>} Realm */

/**
 * One QuickJS context with the helpers the worker uses to move JSON in and out of it. Every entry into
 * the guest goes through `clock.run`, so the CPU budget covers all guest code, getters and toJSON included.
 * @param {QuickJSRuntime} runtime @param {ReturnType<typeof import('./guest-clock.mjs').createGuestClock>} clock
 * @param {(failure: WorkerFailureKind, error: GuestErrorData) => JobFailure} classify @param {string} label
 * @param {import('./worker-protocol.js').WorkerLimits} limits
 */
export function createRealm(runtime, clock, classify, label, limits) {
  const context = runtime.newContext();
  const intrinsics = unwrap(clock.run(() => context.evalCode(intrinsicsSource, `${label}-intrinsics.js`, { type: 'global' })), 'internal');
  const parse = context.getProp(intrinsics, 'parse');
  const stringify = context.getProp(intrinsics, 'stringify');
  const invokeAsync = context.getProp(intrinsics, 'invoke');
  const describeError = context.getProp(intrinsics, 'describeError');
  const inspectNamespace = context.getProp(intrinsics, 'inspect');

  /**
   * @param {ReturnType<QuickJSContext['evalCode']>} result @param {WorkerFailureKind} failure
   * @returns {QuickJSHandle}
   */
  function unwrap(result, failure) {
    if (result.error === undefined) return result.value;
    const error = describe(result.error);
    result.error.dispose();
    throw classify(failure, error);
  }

  /** @param {QuickJSHandle} errorHandle @returns {GuestErrorData} */
  function describe(errorHandle) {
    // A guest that filled its heap may leave no room even to describe the error; lend it a little.
    runtime.setMemoryLimit(limits.memoryBytes + 1024 * 1024);
    try {
      const described = clock.run(() => context.callFunction(describeError, context.undefined, errorHandle));
      if (described.error !== undefined) {
        described.error.dispose();
        return { name: 'InternalError', message: 'out of memory' };
      }
      const text = context.getString(described.value);
      described.value.dispose();
      return JSON.parse(text);
    } finally {
      runtime.setMemoryLimit(limits.memoryBytes);
    }
  }

  /** @param {QuickJSHandle} callee @param {QuickJSHandle[]} callArguments @param {WorkerFailureKind} failure */
  function call(callee, callArguments, failure) {
    return unwrap(clock.run(() => context.callFunction(callee, context.undefined, ...callArguments)), failure);
  }

  /** @param {string} source @param {string} filename */
  function evaluateScript(source, filename) {
    return unwrap(clock.run(() => context.evalCode(source, filename, { type: 'global' })), 'internal');
  }

  /** @param {string} source @param {string} filename @returns {QuickJSHandle} a namespace, or a promise of one */
  function evaluateModule(source, filename) {
    return unwrap(clock.run(() => context.evalCode(source, filename, { type: 'module' })), 'module');
  }

  /** Calls `callee(first, second)` as an async function: always a promise; synchronous throws become rejections. */
  /** @param {QuickJSHandle} callee @param {QuickJSHandle} first @param {QuickJSHandle} second */
  function invoke(callee, first, second) {
    return call(invokeAsync, [callee, first, second], 'guest-error');
  }

  /** @param {string | undefined} json */
  function fromJson(json) {
    if (json === undefined) return context.undefined;
    return context.newString(json).consume((text) => call(parse, [text], 'guest-error'));
  }

  /**
   * The JSON text of a guest value; a JobFailure of kind `output` when it is not JSON data or too long.
   * @param {QuickJSHandle} value @param {string} what
   */
  function toJson(value, what) {
    const serialized = call(stringify, [value], 'output');
    if (context.typeof(serialized) !== 'string') {
      serialized.dispose();
      throw new JobFailure('output', {
        name: 'SandboxOutputError',
        message: `${what} is not JSON data (got ${context.typeof(value)}); return null, a boolean, a number, a string, an array or a plain object`,
      });
    }
    const json = serialized.consume((text) => context.getString(text));
    if (json.length > limits.maxJsonLength) {
      throw new JobFailure('output', {
        name: 'SandboxOutputError',
        message: `${what} is ${json.length} characters of JSON; at most ${limits.maxJsonLength} are allowed`,
      });
    }
    return json;
  }

  /** @param {QuickJSHandle} namespace */
  function inspect(namespace) {
    return call(inspectNamespace, [namespace], 'output').consume((text) => context.getString(text));
  }

  /** @param {QuickJSHandle} namespace @param {string} expectation */
  function defaultExport(namespace, expectation) {
    const exported = context.getProp(namespace, 'default');
    if (context.typeof(exported) !== 'function') {
      exported.dispose();
      throw new JobFailure('module', { name: 'SandboxModuleError', message: `${label}.js has no default export function; it must export ${expectation}` });
    }
    return exported;
  }

  /** True once `promise` is fulfilled or rejected (a plain value counts as fulfilled). */
  /** @param {QuickJSHandle} promise */
  function isSettled(promise) {
    const state = context.getPromiseState(promise);
    if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
    if (state.type === 'rejected') state.error.dispose();
    return state.type !== 'pending';
  }

  /** True when `value` is a real promise of this context, by QuickJS's own record (nothing a guest can redefine). */
  /** @param {QuickJSHandle} value */
  function isPromise(value) {
    const state = context.getPromiseState(value);
    if (state.type === 'fulfilled' && state.notAPromise === true) return false;
    if (state.type === 'fulfilled') state.value.dispose();
    if (state.type === 'rejected') state.error.dispose();
    return true;
  }

  return { context, label, describe, call, evaluateScript, evaluateModule, invoke, fromJson, toJson, inspect, defaultExport, isSettled, isPromise };
}
