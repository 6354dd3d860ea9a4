import { exactBinary, nearestDouble, type PythonNumber } from './python-number.js';

/**
 * Python's `round(value, ndigits)` for `ndigits >= 0`. An int comes back unchanged (Python returns the
 * int itself). A float is rounded the way CPython does it: the exact binary value is rounded to
 * `ndigits` decimals, ties to even, and the decimal read back as the nearest double. So
 * `round(0.125, 2)` is `0.12` (an exact tie, even wins), `round(2.675, 2)` is `2.67` and
 * `round(0.015, 2)` is `0.01` (the doubles are just below the tie); `Math.round(x * 100) / 100` says
 * 0.13 and 0.02. Signs survive: `round(-0.001, 2)` is `-0.0`.
 */
export function pythonRound(value: number, ndigits: number): number;
export function pythonRound(value: PythonNumber, ndigits: number): PythonNumber;
export function pythonRound(value: PythonNumber, ndigits: number): PythonNumber {
  if (!Number.isInteger(ndigits) || ndigits < 0) throw new RangeError(`pythonRound supports ndigits >= 0, not ${ndigits}`);
  if (typeof value === 'bigint' || !Number.isFinite(value) || value === 0) return value;
  const { significand, exponent } = exactBinary(Math.abs(value));
  let numerator = significand * 10n ** BigInt(ndigits);
  let denominator = 1n;
  if (exponent >= 0) numerator <<= BigInt(exponent);
  else denominator <<= BigInt(-exponent);
  let quotient = numerator / denominator;
  const twiceRemainder = 2n * (numerator % denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) quotient += 1n;
  const rounded = nearestDouble(quotient, 10n ** BigInt(ndigits));
  return value < 0 ? -rounded : rounded;
}
