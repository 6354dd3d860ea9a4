// @ts-check
// The assertion library lives in the test's context, where the tool cannot reach it. Each assertion is
// recorded in the worker (outside the guest) before it throws, so a test that swallows an
// AssertionError still fails: the harness judges the records, not the test's own verdict.
export const assertSource = `((record) => {
  const is = Object.is;
  const stringify = JSON.stringify;
  const isArray = Array.isArray;
  const keys = Object.keys;
  const hasOwn = Object.prototype.hasOwnProperty;
  const RegExpClass = RegExp;
  class AssertionError extends Error {
    constructor(message) {
      super(message);
      this.name = 'AssertionError';
    }
  }
  const show = (value) => {
    let text;
    try { text = stringify(value); } catch { text = undefined; }
    if (text === undefined) text = String(value);
    return text.length > 500 ? text.slice(0, 500) + '…' : text;
  };
  // A custom message says what was checked; the values compared are added, since a reviser needs them.
  const compared = (kind, actual, expected) => {
    if (kind === 'equal' || kind === 'deepEqual') return ' (got ' + show(actual) + ', expected ' + show(expected) + ')';
    if (kind === 'ok' || kind === 'match') return ' (got ' + show(actual) + ')';
    return '';
  };
  const check = (kind, passed, message, fallback, actual, expected) => {
    const text = typeof message === 'string' ? message + (passed ? '' : compared(kind, actual, expected)) : fallback();
    record(stringify({ kind, passed, message: text, actual: show(actual), expected: show(expected) }));
    if (!passed) throw new AssertionError(text);
  };
  const deepEqual = (left, right) => {
    if (is(left, right)) return true;
    if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
    if (isArray(left) !== isArray(right)) return false;
    const leftKeys = keys(left);
    if (leftKeys.length !== keys(right).length) return false;
    return leftKeys.every((key) => hasOwn.call(right, key) && deepEqual(left[key], right[key]));
  };
  const errorMatches = (error, expected) => {
    if (expected === undefined) return true;
    const message = String(error !== null && typeof error === 'object' ? error.message : error);
    if (expected instanceof RegExpClass) return expected.test(message);
    if (typeof expected === 'string') return message.includes(expected);
    if (expected !== null && typeof expected === 'object') {
      return (expected.name === undefined || (error !== null && typeof error === 'object' && error.name === expected.name)) &&
        (expected.message === undefined || (expected.message instanceof RegExpClass ? expected.message.test(message) : message === expected.message));
    }
    return false;
  };
  const describeExpected = (expected) => (expected === undefined ? 'an error' : 'an error matching ' + (expected instanceof RegExpClass ? String(expected) : show(expected)));
  return Object.freeze({
    equal(actual, expected, message) {
      check('equal', is(actual, expected), message, () => 'expected ' + show(actual) + ' to equal ' + show(expected), actual, expected);
    },
    deepEqual(actual, expected, message) {
      check('deepEqual', deepEqual(actual, expected), message, () => 'expected ' + show(actual) + ' to deeply equal ' + show(expected), actual, expected);
    },
    ok(value, message) {
      check('ok', Boolean(value), message, () => 'expected ' + show(value) + ' to be truthy', value, true);
    },
    match(actual, pattern, message) {
      const passed = typeof actual === 'string' && pattern instanceof RegExpClass && pattern.test(actual);
      check('match', passed, message, () => (pattern instanceof RegExpClass ? 'expected ' + show(actual) + ' to match ' + String(pattern) : 'assert.match needs a RegExp as its second argument'), actual, String(pattern));
    },
    throws(callee, expected, message) {
      if (typeof callee !== 'function') {
        check('throws', false, message, () => 'assert.throws needs a function as its first argument', callee, describeExpected(expected));
        return;
      }
      const fail = (error) => check('throws', errorMatches(error, expected), message, () => 'expected ' + describeExpected(expected) + ', got ' + show(error && error.message), error && error.message, describeExpected(expected));
      let returned;
      try {
        returned = callee();
      } catch (error) {
        fail(error);
        return;
      }
      if (returned !== null && typeof returned === 'object' && typeof returned.then === 'function') {
        return Promise.resolve(returned).then(
          () => check('throws', false, message, () => 'expected the promise to reject with ' + describeExpected(expected) + ', but it resolved', undefined, describeExpected(expected)),
          fail,
        );
      }
      check('throws', false, message, () => 'expected the function to throw ' + describeExpected(expected) + ', but it returned', returned, describeExpected(expected));
    },
  });
})`;

/** The assertion kinds `assertSource` records; anything else reaching the recorder is ignored. */
export const assertionKinds = new Set(['equal', 'deepEqual', 'ok', 'match', 'throws']);
