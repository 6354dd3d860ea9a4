import { createHash } from 'node:crypto';
import { dictEntries } from './python-json.js';
import { formatPythonFloat } from './python-number.js';
import { comparePythonStrings, reprPythonString } from './python-string.js';
import type { RetailData } from './retail-data.js';

/**
 * τ-bench's `get_data_hash()`: `consistent_hash(to_hashable(data))`, the SHA-256 hex digest of Python's
 * `str()` of the data turned into nested tuples (a dict becomes its `(key, value)` pairs sorted by key,
 * a list a tuple). The text is built byte for byte as Python prints it — `('a',)` for a one-element
 * tuple, strings in `repr` quoting, `True`/`None`, ints as digits and floats as `repr(float)` — so
 * the digest equals the one τ-bench computes for the same state, and key order never matters.
 */
export function retailDataHash(data: RetailData): string {
  const parts: string[] = [];
  writeHashable(data, parts);
  return createHash('sha256').update(parts.join(''), 'utf8').digest('hex');
}

function writeHashable(value: unknown, parts: string[]): void {
  if (typeof value === 'string') parts.push(reprPythonString(value));
  else if (typeof value === 'bigint') parts.push(value.toString());
  else if (typeof value === 'number') parts.push(formatPythonFloat(value));
  else if (typeof value === 'boolean') parts.push(value ? 'True' : 'False');
  else if (value === null) parts.push('None');
  else if (Array.isArray(value)) writeTuple(value, parts, writeHashable);
  else {
    const entries = dictEntries(value);
    if (entries === undefined) throw new TypeError(`Cannot hash a value of type ${typeof value}`);
    entries.sort(([a], [b]) => comparePythonStrings(a, b));
    writeTuple(entries, parts, ([key, entry], into) => {
      into.push('(', reprPythonString(key), ', ');
      writeHashable(entry, into);
      into.push(')');
    });
  }
}

function writeTuple<T>(elements: readonly T[], parts: string[], writeElement: (element: T, parts: string[]) => void): void {
  parts.push('(');
  elements.forEach((element, index) => {
    if (index > 0) parts.push(', ');
    writeElement(element, parts);
  });
  parts.push(elements.length === 1 ? ',)' : ')');
}
