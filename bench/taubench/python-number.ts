/**
 * A Python number as τ-bench's data holds it: an `int` is a bigint, a `float` a number. Python keeps the
 * two apart and so must we: `json.dumps` writes `57` for the int and `57.0` for the float, and the data
 * hash is taken over `str()` of the values, so a balance that a refund turned into a float hashes
 * differently from one that stayed an int.
 */
export type PythonNumber = bigint | number;

/** An exception Python would raise, with its type name (`ZeroDivisionError`) and Python's own message. */
export class PythonError extends Error {
  override readonly name = 'PythonError';

  constructor(
    readonly pythonType: string,
    message: string,
  ) {
    super(message);
  }
}

/** `float(value)`: an int too large for a double raises OverflowError as in Python, never Infinity. */
export function toPythonFloat(value: PythonNumber): number {
  if (typeof value === 'number') return value;
  const converted = Number(value);
  if (!Number.isFinite(converted)) throw new PythonError('OverflowError', 'int too large to convert to float');
  return converted;
}

/** `a + b`: int stays int, anything with a float is a float. */
export function pythonAdd(a: PythonNumber, b: PythonNumber): PythonNumber {
  return typeof a === 'bigint' && typeof b === 'bigint' ? a + b : toPythonFloat(a) + toPythonFloat(b);
}

/** `a - b`, with the same int/float rule as `pythonAdd`. */
export function pythonSubtract(a: PythonNumber, b: PythonNumber): PythonNumber {
  return typeof a === 'bigint' && typeof b === 'bigint' ? a - b : toPythonFloat(a) - toPythonFloat(b);
}

/** `abs(value)`, keeping the type. */
export function pythonAbs(value: PythonNumber): PythonNumber {
  if (typeof value === 'number') return Math.abs(value);
  return value < 0n ? -value : value;
}

/**
 * `repr(value)` (and `str`, the same since Python 3.2) of a float: the shortest digits that read back
 * to the same double (what JavaScript picks too), laid out Python's way — positional while the
 * decimal exponent is in [-5, 16), otherwise `1e-05`/`1.5e+16` with at least two exponent digits;
 * integral values keep `.0`.
 */
export function formatPythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '', exponentText = ''] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}

/** A positive finite double as `significand × 2^exponent`, exactly. */
export function exactBinary(value: number): { significand: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biasedExponent === 0 ? { significand: fraction, exponent: -1074 } : { significand: fraction | (1n << 52n), exponent: biasedExponent - 1075 };
}

/**
 * The double nearest to `numerator / denominator` (both positive), ties to even, Infinity past the
 * largest double: the one correctly rounded conversion Python makes for `int / int` and `round()`.
 */
export function nearestDouble(numerator: bigint, denominator: bigint): number {
  if (numerator === 0n) return 0;
  const magnitude = bitLength(numerator) - bitLength(denominator);
  if (magnitude > 1025) return Infinity;
  // Keep 55 bits of quotient (two below a double's 53) or, for results under 2^-1021 where a double's last
  // unit is 2^-1074, two bits below that unit; the lowest bit also records any remainder, so the one
  // rounding that follows is exact.
  const belowNormal = magnitude - 55 < -1076;
  const shift = belowNormal ? -1076 : magnitude - 55;
  const scaledNumerator = shift < 0 ? numerator << BigInt(-shift) : numerator;
  const scaledDenominator = shift > 0 ? denominator << BigInt(shift) : denominator;
  let quotient = scaledNumerator / scaledDenominator;
  if (scaledNumerator % scaledDenominator !== 0n) quotient |= 1n;
  if (!belowNormal) return shift >= 0 ? Number(quotient) * 2 ** shift : Number(quotient) * 2 ** (shift + 100) * 2 ** -100;
  let units = quotient >> 2n;
  if ((quotient & 2n) !== 0n && ((quotient & 1n) !== 0n || (units & 1n) === 1n)) units += 1n;
  return Number(units) * 2 ** -1074;
}

/** The number of bits of `|value|`, 0 for 0. */
export function bitLength(value: bigint): number {
  if (value === 0n) return 0;
  const hex = (value < 0n ? -value : value).toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(Number.parseInt(hex[0]!, 16)));
}
