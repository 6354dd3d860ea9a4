// @ts-check
/**
 * JavaScript the worker installs in a guest context before any guest code runs: the helpers it reads
 * guest values with, the `forge` object a tool receives, and the `tool` function a test receives.
 */

// Guest helpers are evaluated in every context before any guest code, and keep their own references to
// JSON and Object: a guest that replaces those globals changes only its own view, never how the worker
// reads its values.
export const intrinsicsSource = `(() => {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const keys = Object.keys;
  const toText = String;
  const apply = Reflect.apply;
  const slice = String.prototype.slice;
  const cap = (text, length) => (text.length > length ? apply(slice, text, [0, length]) + '…' : text);
  // Freed before an error is described, so a guest that exhausted its memory still gets a real message.
  // Kept small: zeroing it is a cost every context pays, and describing an error needs only a few KiB.
  let reserve = new ArrayBuffer(64 * 1024);
  return {
    parse: (text) => parse(text),
    stringify: (value) => stringify(value),
    invoke: async (callee, first, second) => callee(first, second),
    describeError(error) {
      reserve = undefined;
      try {
        if (error !== null && typeof error === 'object') {
          return stringify({
            name: cap(toText(error.name ?? 'Error'), 200),
            message: cap(toText(error.message ?? ''), 4000),
            stack: typeof error.stack === 'string' ? cap(error.stack, 4000) : undefined,
          });
        }
        return stringify({ name: 'Error', message: cap('non-error value thrown: ' + toText(error), 4000) });
      } catch {
        return '{"name":"Error","message":"an error was thrown that could not be described"}';
      }
    },
    inspect(namespace) {
      let meta;
      let metaError;
      try {
        meta = stringify(namespace.meta);
      } catch (error) {
        metaError = 'meta is not JSON data: ' + toText(error && error.message);
      }
      return stringify({ exportNames: keys(namespace), defaultExportType: typeof namespace.default, meta, metaError });
    },
  };
})()`;

export const forgeSource = `((knownNames, grants) => {
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const rejectWith = Promise.reject.bind(Promise);
  const hasOwn = Object.prototype.hasOwnProperty;
  const granted = {};
  for (const [name, adapter, send] of grants) {
    // A refused call (too large, over the call cap) rejects like any failed call instead of throwing.
    const call = (method, callArguments) => {
      try {
        return send(method, stringify(callArguments)).then((text) => parse(text));
      } catch (error) {
        return rejectWith(error);
      }
    };
    granted[name] = adapter(call);
  }
  Object.freeze(granted);
  return new Proxy(granted, {
    get(target, key) {
      if (hasOwn.call(target, key)) return target[key];
      if (typeof key === 'string' && knownNames.includes(key)) {
        const error = new Error('forge.' + key + ' is not available: the "' + key + '" capability was not granted to this tool. Declare it in meta.capabilities.');
        error.name = 'CapabilityNotGrantedError';
        throw error;
      }
      return undefined;
    },
  });
})`;

// The host resolves the promise `send` returns with the tool's result already parsed in the test's context.
export const toolProxySource = `((send) => {
  'use strict';
  const stringify = JSON.stringify;
  return function tool(input) {
    return send(input === undefined ? undefined : stringify(input));
  };
})`;
