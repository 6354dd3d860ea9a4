import { formatPythonFloat } from './python-number.js';

/**
 * A value as Python's `json.loads` gives it: a dict is a `Map` (it keeps insertion order for every key,
 * where a JavaScript object would move integer-like keys such as item ids to the front), a list an
 * array, an int a bigint, a float a number, `None` null.
 */
export type PythonValue = null | boolean | string | number | bigint | PythonValue[] | Map<string, PythonValue>;

/** Python's `json.loads(text)`: numbers without a fraction or exponent are ints (bigint), the rest floats. */
export function parsePythonJson(text: string): PythonValue {
  const reader = new JsonReader(text);
  const value = reader.readValue();
  reader.expectEnd();
  return value;
}

/**
 * Python's `json.dumps(value)` with its defaults: `", "` and `": "` separators, keys in insertion order,
 * non-ASCII escaped as `\uXXXX`, floats as `repr(float)` (`100.0`, not `100`). Takes what
 * `parsePythonJson` gives and plain objects (records), which keep their own key order.
 */
export function dumpsPythonJson(value: unknown): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'string') return quotePythonJsonString(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return formatPythonFloat(value);
  }
  if (Array.isArray(value)) return `[${value.map((element) => dumpsPythonJson(element)).join(', ')}]`;
  const entries = dictEntries(value);
  if (entries !== undefined) return `{${entries.map(([key, entry]) => `${quotePythonJsonString(key)}: ${dumpsPythonJson(entry)}`).join(', ')}}`;
  throw new TypeError(`Object of type ${typeof value} is not JSON serializable`);
}

/** The entries of a dict-like value (a Map with string keys or a plain object), or undefined for anything else. */
export function dictEntries(value: unknown): [string, unknown][] | undefined {
  if (value instanceof Map) return [...(value as Map<unknown, unknown>)].map(([key, entry]) => [String(key), entry]);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.entries(value);
  return undefined;
}

const shortEscapes: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function quotePythonJsonString(text: string): string {
  // Every UTF-16 code unit outside printable ASCII is escaped on its own, so astral characters come out as
  // the surrogate pair Python writes too.
  return `"${text.replace(/[\\"]|[^ -~]/g, (character) => shortEscapes[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

const numberPattern = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const readEscapes: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class JsonReader {
  private position = 0;

  constructor(private readonly text: string) {}

  readValue(): PythonValue {
    this.skipWhitespace();
    const character = this.text[this.position];
    if (character === '{') return this.readObject();
    if (character === '[') return this.readArray();
    if (character === '"') return this.readString();
    if (this.text.startsWith('true', this.position)) return this.readLiteral('true', true);
    if (this.text.startsWith('false', this.position)) return this.readLiteral('false', false);
    if (this.text.startsWith('null', this.position)) return this.readLiteral('null', null);
    return this.readNumber();
  }

  expectEnd(): void {
    this.skipWhitespace();
    if (this.position < this.text.length) this.fail('extra data');
  }

  private readObject(): Map<string, PythonValue> {
    const dict = new Map<string, PythonValue>();
    this.position += 1;
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position += 1;
      return dict;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"') this.fail('expected a property name');
      const key = this.readString();
      this.skipWhitespace();
      this.expect(':');
      dict.set(key, this.readValue());
      this.skipWhitespace();
      if (this.text[this.position] === '}') {
        this.position += 1;
        return dict;
      }
      this.expect(',');
    }
  }

  private readArray(): PythonValue[] {
    const list: PythonValue[] = [];
    this.position += 1;
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position += 1;
      return list;
    }
    for (;;) {
      list.push(this.readValue());
      this.skipWhitespace();
      if (this.text[this.position] === ']') {
        this.position += 1;
        return list;
      }
      this.expect(',');
    }
  }

  private readString(): string {
    let result = '';
    let start = this.position + 1;
    for (let index = start; index < this.text.length; index += 1) {
      const character = this.text[index];
      if (character === '"') {
        this.position = index + 1;
        return result + this.text.slice(start, index);
      }
      if (character === '\\') {
        result += this.text.slice(start, index);
        const escape = this.text[index + 1];
        if (escape === 'u') {
          const hex = this.text.slice(index + 2, index + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape', index);
          result += String.fromCharCode(Number.parseInt(hex, 16));
          index += 5;
        } else {
          const decoded = escape === undefined ? undefined : readEscapes[escape];
          if (decoded === undefined) this.fail('invalid escape', index);
          result += decoded;
          index += 1;
        }
        start = index + 1;
      } else if (character !== undefined && character < ' ') {
        this.fail('control character in string', index);
      }
    }
    return this.fail('unterminated string');
  }

  private readNumber(): number | bigint {
    numberPattern.lastIndex = this.position;
    const match = numberPattern.exec(this.text);
    if (match === null) return this.fail('expected a value');
    this.position += match[0].length;
    return match[1] === undefined && match[2] === undefined ? BigInt(match[0]) : Number(match[0]);
  }

  private readLiteral<T>(word: string, value: T): T {
    this.position += word.length;
    return value;
  }

  private skipWhitespace(): void {
    while (this.position < this.text.length && ' \t\n\r'.includes(this.text[this.position]!)) this.position += 1;
  }

  private expect(character: string): void {
    if (this.text[this.position] !== character) this.fail(`expected '${character}'`);
    this.position += 1;
  }

  private fail(reason: string, at = this.position): never {
    throw new SyntaxError(`Invalid JSON at offset ${at}: ${reason}`);
  }
}
