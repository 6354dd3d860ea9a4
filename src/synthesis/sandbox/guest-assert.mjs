// @ts-check
// The assertion library lives in the test's context, where the tool cannot reach it. Each assertion is
// recorded in the worker (outside the guest) before it throws, so a test that swallows an
// AssertionError still fails: the harness judges the records, not the test's own verdict.
//
// The test shares this context and may replace any built-in in it (RegExp.prototype.exec,
// Array.prototype.every, Object.prototype.toJSON, the Boolean global, Promise.prototype.then, …). So the
// library is evaluated before the test module, keeps its own references to every built-in it calls and
// calls them through `apply`, compares with syntax rather than methods, and hands the worker each
// verdict as separate primitive values rather than as an object a patched prototype could rewrite.
// Whatever the test patches, an assertion records what really happened to the values it was given.
export const assertSource = `((record, isPromise) => {
  'use strict';
  const apply = Reflect.apply;
  const is = Object.is;
  const stringify = JSON.stringify;
  const isArray = Array.isArray;
  const keys = Object.keys;
  const freeze = Object.freeze;
  const toText = String;
  const hasOwn = Object.prototype.hasOwnProperty;
  const slice = String.prototype.slice;
  const includes = String.prototype.includes;
  const regExpExec = RegExp.prototype.exec;
  const regExpPrototype = RegExp.prototype;
  const regExpSource = Object.getOwnPropertyDescriptor(RegExp.prototype, 'source').get;
  const regExpFlags = Object.getOwnPropertyDescriptor(RegExp.prototype, 'flags').get;
  const promiseThen = Promise.prototype.then;
  const ErrorClass = Error;
  class AssertionError extends ErrorClass {
    constructor(message) {
      super(message);
      this.name = 'AssertionError';
    }
  }
  // A RegExp by its internal slot, not by instanceof (which a test can redefine with Symbol.hasInstance).
  const isRegExp = (value) => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || value === regExpPrototype) return false;
    try {
      apply(regExpSource, value, []);
      return true;
    } catch {
      return false;
    }
  };
  const regExpMatches = (pattern, text) => apply(regExpExec, pattern, [text]) !== null;
  const showRegExp = (pattern) => '/' + apply(regExpSource, pattern, []) + '/' + apply(regExpFlags, pattern, []);
  const shorten = (text) => (text.length > 500 ? apply(slice, text, [0, 500]) + '…' : text);
  const show = (value) => {
    try {
      if (isRegExp(value)) return shorten(showRegExp(value));
      const text = stringify(value);
      if (typeof text === 'string') return shorten(text);
    } catch {
      // Shown as String(value) below.
    }
    try {
      return shorten(toText(value));
    } catch {
      return '[a value that cannot be shown]';
    }
  };
  // Comparisons run only syntax and bound built-ins; one that throws anyway (a getter, a proxy trap)
  // counts as a failed assertion rather than escaping before it is recorded.
  const holds = (comparison) => {
    try {
      return comparison() === true;
    } catch {
      return false;
    }
  };
  // A custom message says what was checked; the values compared are added, since a reviser needs them.
  const compared = (kind, actual, expected) => {
    if (kind === 'equal' || kind === 'deepEqual') return ' (got ' + show(actual) + ', expected ' + show(expected) + ')';
    if (kind === 'ok' || kind === 'match') return ' (got ' + show(actual) + ')';
    return '';
  };
  const check = (kind, passed, message, fallback, actual, expected) => {
    let text;
    try {
      text = typeof message === 'string' ? message + (passed ? '' : compared(kind, actual, expected)) : fallback();
    } catch {
      text = 'assert.' + kind + (passed ? ' held' : ' failed');
    }
    record(kind, passed, text, show(actual), show(expected));
    if (!passed) throw new AssertionError(text);
  };
  const deepEqual = (left, right) => {
    if (is(left, right)) return true;
    if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
    if (isArray(left) !== isArray(right)) return false;
    const leftKeys = keys(left);
    if (leftKeys.length !== keys(right).length) return false;
    for (let index = 0; index < leftKeys.length; index++) {
      const key = leftKeys[index];
      if (!apply(hasOwn, right, [key]) || !deepEqual(left[key], right[key])) return false;
    }
    return true;
  };
  const errorMatches = (error, expected) => {
    if (expected === undefined) return true;
    const message = toText(error !== null && typeof error === 'object' ? error.message : error);
    if (isRegExp(expected)) return regExpMatches(expected, message);
    if (typeof expected === 'string') return apply(includes, message, [expected]);
    if (expected !== null && typeof expected === 'object') {
      const name = expected.name;
      const expectedMessage = expected.message;
      return (name === undefined || (error !== null && typeof error === 'object' && error.name === name)) &&
        (expectedMessage === undefined || (isRegExp(expectedMessage) ? regExpMatches(expectedMessage, message) : message === expectedMessage));
    }
    return false;
  };
  const describeExpected = (expected) => (expected === undefined ? 'an error' : 'an error matching ' + show(expected));
  const messageOf = (error) => {
    try {
      return error && error.message;
    } catch {
      return undefined;
    }
  };
  return freeze({
    equal(actual, expected, message) {
      check('equal', is(actual, expected), message, () => 'expected ' + show(actual) + ' to equal ' + show(expected), actual, expected);
    },
    deepEqual(actual, expected, message) {
      check('deepEqual', holds(() => deepEqual(actual, expected)), message, () => 'expected ' + show(actual) + ' to deeply equal ' + show(expected), actual, expected);
    },
    ok(value, message) {
      check('ok', !!value, message, () => 'expected ' + show(value) + ' to be truthy', value, true);
    },
    match(actual, pattern, message) {
      const passed = typeof actual === 'string' && isRegExp(pattern) && holds(() => regExpMatches(pattern, actual));
      check('match', passed, message, () => (isRegExp(pattern) ? 'expected ' + show(actual) + ' to match ' + show(pattern) : 'assert.match needs a RegExp as its second argument'), actual, pattern);
    },
    throws(callee, expected, message) {
      if (typeof callee !== 'function') {
        check('throws', false, message, () => 'assert.throws needs a function as its first argument', callee, describeExpected(expected));
        return;
      }
      // Recorded once, however often a thenable calls back.
      let settled = false;
      const fail = (error) => {
        if (settled) return;
        settled = true;
        check('throws', holds(() => errorMatches(error, expected)), message, () => 'expected ' + describeExpected(expected) + ', got ' + show(messageOf(error)), messageOf(error), describeExpected(expected));
      };
      const resolved = () => {
        if (settled) return;
        settled = true;
        check('throws', false, message, () => 'expected the promise to reject with ' + describeExpected(expected) + ', but it resolved', undefined, describeExpected(expected));
      };
      let returned;
      try {
        returned = callee();
      } catch (error) {
        fail(error);
        return;
      }
      // A real promise is watched with the library's own then, so a patched Promise.prototype.then cannot
      // decide which way it went; any other thenable is the test's own object and is asked directly.
      if (isPromise(returned)) {
        let watched;
        try {
          watched = apply(promiseThen, returned, [resolved, fail]);
        } catch {
          check('throws', false, message, () => 'assert.throws could not watch the promise (Promise.prototype.constructor was tampered with)', undefined, describeExpected(expected));
        }
        return watched;
      }
      let then;
      try {
        then = returned !== null && (typeof returned === 'object' || typeof returned === 'function') ? returned.then : undefined;
      } catch (error) {
        fail(error);
        return;
      }
      if (typeof then === 'function') {
        try {
          return apply(then, returned, [resolved, fail]);
        } catch (error) {
          // A then that throws before calling back rejects, as it would for a promise.
          if (settled) throw error;
          fail(error);
          return;
        }
      }
      check('throws', false, message, () => 'expected the function to throw ' + describeExpected(expected) + ', but it returned', returned, describeExpected(expected));
    },
  });
})`;

/** The assertion kinds `assertSource` records; anything else reaching the recorder is ignored. */
export const assertionKinds = new Set(['equal', 'deepEqual', 'ok', 'match', 'throws']);
