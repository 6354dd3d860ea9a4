import type { BinaryOperator, PythonExpression } from './python-expression-parser.js';
import { bitLength, exactBinary, formatPythonFloat, nearestDouble, PythonError, toPythonFloat } from './python-number.js';

/** What such an expression can evaluate to in Python: `int`, `float`, `complex` (a negative number to a fractional power), `()` or `...`. */
export type PythonArithmeticValue =
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'complex'; readonly real: number; readonly imag: number }
  | { readonly type: 'tuple' }
  | { readonly type: 'ellipsis' };

type NumericValue = Extract<PythonArithmeticValue, { type: 'int' | 'float' | 'complex' }>;
type Complex = { readonly real: number; readonly imag: number };

/**
 * Evaluates a parsed expression with CPython 3.11's semantics and messages: exact ints, IEEE floats,
 * int `/` correctly rounded, floor division and powers by CPython's own case analysis, complex results
 * where Python gives them, tuple concatenation and repetition, and the TypeErrors of everything else.
 * One deliberate limit: an int that would need more than 2^20 bits raises OverflowError('int too large
 * to convert to float'), the error Python reaches for such a value (after computing it) unless it is
 * divided back down.
 */
export function evaluatePythonExpression(expression: PythonExpression): PythonArithmeticValue {
  switch (expression.kind) {
    case 'int':
      return { type: 'int', value: expression.value };
    case 'float':
      return { type: 'float', value: expression.value };
    case 'ellipsis':
      return { type: 'ellipsis' };
    case 'empty-tuple':
      return { type: 'tuple' };
    case 'unary':
      return unary(expression.operator, evaluatePythonExpression(expression.operand));
    case 'binary':
      return binary(expression.operator, evaluatePythonExpression(expression.left), evaluatePythonExpression(expression.right));
    case 'call': {
      const callee = evaluatePythonExpression(expression.callee);
      const argument = expression.argument === undefined ? undefined : { unpack: expression.argument.unpack, value: evaluatePythonExpression(expression.argument.value) };
      if (argument?.unpack === '*' && argument.value.type !== 'tuple') throw typeError(`${pythonStr(callee)} argument after * must be an iterable, not ${argument.value.type}`);
      if (argument?.unpack === '**') throw typeError(`${pythonStr(callee)} argument after ** must be a mapping, not ${argument.value.type}`);
      throw typeError(`'${callee.type}' object is not callable`);
    }
  }
}

/** `float(value)`. */
export function pythonFloatOf(value: PythonArithmeticValue): number {
  if (value.type === 'int') return toPythonFloat(value.value);
  if (value.type === 'float') return value.value;
  throw typeError(`float() argument must be a string or a real number, not '${value.type}'`);
}

const maxIntBits = 2 ** 20;

function typeError(message: string): PythonError {
  return new PythonError('TypeError', message);
}

function isNumeric(value: PythonArithmeticValue): value is NumericValue {
  return value.type === 'int' || value.type === 'float' || value.type === 'complex';
}

function int(value: bigint): PythonArithmeticValue {
  if (bitLength(value) > maxIntBits) throw new PythonError('OverflowError', 'int too large to convert to float');
  return { type: 'int', value };
}

function float(value: number): PythonArithmeticValue {
  return { type: 'float', value };
}

function complex({ real, imag }: Complex): PythonArithmeticValue {
  return { type: 'complex', real, imag };
}

function unary(operator: '+' | '-', operand: PythonArithmeticValue): PythonArithmeticValue {
  if (!isNumeric(operand)) throw typeError(`bad operand type for unary ${operator}: '${operand.type}'`);
  if (operator === '+') return operand;
  if (operand.type === 'int') return int(-operand.value);
  if (operand.type === 'float') return float(-operand.value);
  return complex({ real: -operand.real, imag: -operand.imag });
}

function binary(operator: BinaryOperator, left: PythonArithmeticValue, right: PythonArithmeticValue): PythonArithmeticValue {
  if (isNumeric(left) && isNumeric(right)) return numeric(operator, left, right);
  if (operator === '+' && left.type === 'tuple') {
    if (right.type === 'tuple') return left;
    throw typeError(`can only concatenate tuple (not "${right.type}") to tuple`);
  }
  if (operator === '*' && (left.type === 'tuple' || right.type === 'tuple')) return repeatTuple(left.type === 'tuple' ? right : left);
  throw typeError(`unsupported operand type(s) for ${operator === '**' ? '** or pow()' : operator}: '${left.type}' and '${right.type}'`);
}

/** `() * count`: the empty tuple again, once the count is an int that fits a Py_ssize_t. */
function repeatTuple(count: PythonArithmeticValue): PythonArithmeticValue {
  if (count.type !== 'int') throw typeError(`can't multiply sequence by non-int of type '${count.type}'`);
  if (count.value > 2n ** 63n - 1n || count.value < -(2n ** 63n)) throw new PythonError('OverflowError', "cannot fit 'int' into an index-sized integer");
  return { type: 'tuple' };
}

function numeric(operator: BinaryOperator, left: NumericValue, right: NumericValue): PythonArithmeticValue {
  if (left.type === 'complex' || right.type === 'complex') {
    if (operator === '//') throw typeError(`unsupported operand type(s) for //: '${left.type}' and '${right.type}'`);
    return complex(complexOperation(operator, toComplex(left), toComplex(right)));
  }
  if (left.type === 'int' && right.type === 'int') return integerOperation(operator, left.value, right.value);
  const a = pythonFloatOf(left);
  const b = pythonFloatOf(right);
  switch (operator) {
    case '+':
      return float(a + b);
    case '-':
      return float(a - b);
    case '*':
      return float(a * b);
    case '/':
      if (b === 0) throw new PythonError('ZeroDivisionError', 'float division by zero');
      return float(a / b);
    case '//':
      if (b === 0) throw new PythonError('ZeroDivisionError', 'float floor division by zero');
      return float(floatFloorDivide(a, b));
    case '**':
      return floatPower(a, b);
  }
}

function integerOperation(operator: BinaryOperator, a: bigint, b: bigint): PythonArithmeticValue {
  switch (operator) {
    case '+':
      return int(a + b);
    case '-':
      return int(a - b);
    case '*':
      if (bitLength(a) + bitLength(b) > maxIntBits + 1) throw new PythonError('OverflowError', 'int too large to convert to float');
      return int(a * b);
    case '/':
      return float(divideIntegers(a, b));
    case '//': {
      if (b === 0n) throw new PythonError('ZeroDivisionError', 'integer division or modulo by zero');
      const quotient = a / b;
      return int(a % b !== 0n && a < 0n !== b < 0n ? quotient - 1n : quotient);
    }
    case '**':
      if (b < 0n) return floatPower(toPythonFloat(a), toPythonFloat(b));
      if (a === 0n || a === 1n || a === -1n) return int(a ** b);
      if (BigInt(bitLength(a) - 1) * b > BigInt(maxIntBits)) throw new PythonError('OverflowError', 'int too large to convert to float');
      return int(a ** b);
  }
}

/** Python's `int / int`: the exact quotient rounded once to the nearest double, ties to even. */
function divideIntegers(a: bigint, b: bigint): number {
  if (b === 0n) throw new PythonError('ZeroDivisionError', 'division by zero');
  const limit = 2n ** 53n;
  const negative = a < 0n !== b < 0n;
  const numerator = a < 0n ? -a : a;
  const denominator = b < 0n ? -b : b;
  if (numerator <= limit && denominator <= limit) return Number(a) / Number(b);
  const result = nearestDouble(numerator, denominator);
  if (!Number.isFinite(result)) throw new PythonError('OverflowError', 'integer division result too large for a float');
  return negative ? -result : result;
}

/** CPython's `float // float` (`_float_div_mod`), not `Math.floor(a / b)`. */
function floatFloorDivide(a: number, b: number): number {
  const modulo = a % b;
  let quotient = (a - modulo) / b;
  if (modulo !== 0 && b < 0 !== modulo < 0) quotient -= 1;
  if (quotient === 0) {
    const exact = a / b;
    return exact < 0 || Object.is(exact, -0) ? -0 : 0;
  }
  let floored = Math.floor(quotient);
  if (quotient - floored > 0.5) floored += 1;
  return floored;
}

function isOddInteger(value: number): boolean {
  return Math.abs(value) % 2 === 1;
}

/** CPython's `float_pow`, case by case; a negative base to a fractional power goes complex. */
function floatPower(base: number, exponent: number): PythonArithmeticValue {
  if (exponent === 0) return float(1);
  if (Number.isNaN(base)) return float(base);
  if (Number.isNaN(exponent)) return float(base === 1 ? 1 : exponent);
  if (!Number.isFinite(exponent)) {
    const size = Math.abs(base);
    if (size === 1) return float(1);
    return float(exponent > 0 === size > 1 ? Math.abs(exponent) : 0);
  }
  if (!Number.isFinite(base)) {
    if (exponent > 0) return float(isOddInteger(exponent) ? base : Math.abs(base));
    return float(isOddInteger(exponent) ? (base < 0 ? -0 : 0) : 0);
  }
  if (base === 0) {
    if (exponent < 0) throw new PythonError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    return float(isOddInteger(exponent) ? base : 0);
  }
  if (base === 1) return float(1);
  let negate = false;
  if (base < 0) {
    if (exponent !== Math.floor(exponent)) return complex(complexPower({ real: base, imag: 0 }, { real: exponent, imag: 0 }));
    base = -base;
    negate = isOddInteger(exponent);
  }
  if (base === 1) return float(negate ? -1 : 1);
  const result = Number.isInteger(exponent) && Math.abs(exponent) <= maxExactExponent ? exactPower(base, exponent) : Math.pow(base, exponent);
  if (!Number.isFinite(result)) throw new PythonError('OverflowError', "(34, 'Numerical result out of range')");
  return float(negate ? -result : result);
}

/** Integral exponents up to this size are computed exactly and rounded once, as C's `pow` does; others use `Math.pow`. */
const maxExactExponent = 1024;

/** `base ** exponent` for a positive base and an integral exponent, correctly rounded. */
function exactPower(base: number, exponent: number): number {
  const { significand, exponent: binaryExponent } = exactBinary(base);
  const count = BigInt(Math.abs(exponent));
  const scale = BigInt(binaryExponent) * count;
  let numerator = significand ** count;
  let denominator = 1n;
  if (scale >= 0n) numerator <<= scale;
  else denominator <<= -scale;
  return exponent > 0 ? nearestDouble(numerator, denominator) : nearestDouble(denominator, numerator);
}

function toComplex(value: NumericValue): Complex {
  return value.type === 'complex' ? value : { real: pythonFloatOf(value), imag: 0 };
}

function complexOperation(operator: Exclude<BinaryOperator, '//'>, a: Complex, b: Complex): Complex {
  switch (operator) {
    case '+':
      return { real: a.real + b.real, imag: a.imag + b.imag };
    case '-':
      return { real: a.real - b.real, imag: a.imag - b.imag };
    case '*':
      return complexProduct(a, b);
    case '/': {
      const quotient = complexQuotient(a, b);
      if (quotient === undefined) throw new PythonError('ZeroDivisionError', 'complex division by zero');
      return quotient;
    }
    case '**':
      return complexPower(a, b);
  }
}

function complexProduct(a: Complex, b: Complex): Complex {
  return { real: a.real * b.real - a.imag * b.imag, imag: a.real * b.imag + a.imag * b.real };
}

/** CPython's `_Py_c_quot`; undefined for division by zero. */
function complexQuotient(a: Complex, b: Complex): Complex | undefined {
  const absReal = Math.abs(b.real);
  const absImag = Math.abs(b.imag);
  if (absReal >= absImag) {
    if (absReal === 0) return undefined;
    const ratio = b.imag / b.real;
    const denominator = b.real + b.imag * ratio;
    return { real: (a.real + a.imag * ratio) / denominator, imag: (a.imag - a.real * ratio) / denominator };
  }
  if (absImag >= absReal) {
    const ratio = b.real / b.imag;
    const denominator = b.real * ratio + b.imag;
    return { real: (a.real * ratio + a.imag) / denominator, imag: (a.imag * ratio - a.real) / denominator };
  }
  return { real: Number.NaN, imag: Number.NaN };
}

/** CPython's `complex_pow`: small integral exponents by repeated multiplication, others in polar form. */
function complexPower(base: Complex, exponent: Complex): Complex {
  let result: Complex | undefined;
  if (exponent.imag === 0 && exponent.real === Math.floor(exponent.real) && Math.abs(exponent.real) <= 100) {
    const count = Math.abs(exponent.real);
    let power: Complex = { real: 1, imag: 0 };
    let square = base;
    for (let mask = 1; mask <= count; mask *= 2) {
      if (Math.floor(count / mask) % 2 === 1) power = complexProduct(power, square);
      square = complexProduct(square, square);
    }
    result = exponent.real >= 0 ? power : complexQuotient({ real: 1, imag: 0 }, power);
  } else if (base.real === 0 && base.imag === 0) {
    result = exponent.imag !== 0 || exponent.real < 0 ? undefined : { real: 0, imag: 0 };
  } else {
    const size = Math.hypot(base.real, base.imag);
    let length = Math.pow(size, exponent.real);
    const angle = Math.atan2(base.imag, base.real);
    let phase = angle * exponent.real;
    if (exponent.imag !== 0) {
      length /= Math.exp(angle * exponent.imag);
      phase += exponent.imag * Math.log(size);
    }
    result = { real: length * Math.cos(phase), imag: length * Math.sin(phase) };
  }
  if (result === undefined) throw new PythonError('ZeroDivisionError', '0.0 to a negative or complex power');
  if ([result.real, result.imag].some((part) => part === Infinity || part === -Infinity)) throw new PythonError('OverflowError', 'complex exponentiation');
  return result;
}

/** `str(value)`, which Python puts in front of some call errors. */
function pythonStr(value: PythonArithmeticValue): string {
  switch (value.type) {
    case 'int': {
      const digits = value.value.toString();
      if (digits.replace('-', '').length > 4300) throw new PythonError('ValueError', 'Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit');
      return digits;
    }
    case 'float':
      return formatPythonFloat(value.value);
    case 'complex': {
      const part = (number: number) => formatPythonFloat(number).replace(/\.0$/, '');
      if (value.real === 0 && !Object.is(value.real, -0)) return `${part(value.imag)}j`;
      const imag = part(value.imag);
      return `(${part(value.real)}${imag.startsWith('-') ? '' : '+'}${imag}j)`;
    }
    case 'tuple':
      return '()';
    case 'ellipsis':
      return 'Ellipsis';
  }
}
