import { RE2JS } from 're2js';

/** A regular expression matched in time linear in the text, whatever the pattern. */
export interface LinearPattern {
  /** Like `RegExp.prototype.test`: whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
}

// ECMAScript's \s: ASCII white space, no-break space, the Unicode space separators, line separators and
// the byte order mark. RE2's own \s is ASCII only.
const whiteSpaceRanges = '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
// ECMAScript's `.` stops at every line terminator; RE2's only at \n.
const anyButLineTerminator = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * Compiles an ECMAScript pattern (the dialect JSON Schema's `pattern` uses) for RE2's linear-time engine,
 * translating what the two spell differently (`\uXXXX`, `\u{…}`, `\cX`, `\0`, `\s`, `.`). Returns
 * `undefined` for a pattern that needs backtracking to mean what it says (backreferences, lookahead,
 * lookbehind) or that RE2 cannot compile: such a pattern cannot be checked safely, and the caller
 * decides what to do without it. Compiling is itself linear in the pattern's length.
 */
export function compileLinearPattern(source: string): LinearPattern | undefined {
  const translated = re2Syntax(source);
  if (translated === undefined) return undefined;
  try {
    const compiled = RE2JS.compile(translated);
    return { test: (text) => compiled.test(text) };
  } catch {
    return undefined;
  }
}

/** The pattern in RE2's syntax, or `undefined` when it uses a construct RE2 has no linear equivalent for. */
function re2Syntax(source: string): string | undefined {
  let out = '';
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const character = source[index]!;
    if (character === '\\') {
      const escape = translateEscape(source, index + 1, inClass);
      if (escape === undefined) return undefined;
      out += escape.text;
      index = escape.end - 1;
      continue;
    }
    if (inClass) {
      if (character === ']') inClass = false;
      // A `[` inside a class is a plain character in ECMAScript; RE2 would read `[:alpha:]` specially.
      out += character === '[' ? '\\[' : character;
      continue;
    }
    if (character === '[') {
      // `[]` matches nothing and `[^]` anything in ECMAScript; RE2 reads both differently.
      if (source.startsWith(']', index + 1) || source.startsWith('^]', index + 1)) return undefined;
      inClass = true;
      out += character;
      if (source[index + 1] === '^') {
        out += '^';
        index += 1;
      }
      continue;
    }
    if (character === '(' && /^\(\?(=|!|<=|<!)/.test(source.slice(index, index + 4))) return undefined;
    out += character === '.' ? anyButLineTerminator : character;
  }
  return out;
}

/** Translates the escape whose letter is at `start`; `end` is where the pattern goes on after it. */
function translateEscape(source: string, start: number, inClass: boolean): { text: string; end: number } | undefined {
  const letter = source[start];
  if (letter === undefined) return undefined;
  if (letter === 'u') {
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(source.slice(start + 1, start + 9));
    if (braced !== null) return { text: `\\x{${braced[1]}}`, end: start + 1 + braced[0].length };
    const plain = /^[0-9a-fA-F]{4}/.exec(source.slice(start + 1, start + 5));
    return plain === null ? undefined : { text: `\\x{${plain[0]}}`, end: start + 5 };
  }
  if (letter === 'c') {
    const control = source[start + 1];
    if (control === undefined || !/[a-zA-Z]/.test(control)) return undefined;
    return { text: `\\x{${(control.charCodeAt(0) % 32).toString(16)}}`, end: start + 2 };
  }
  if (letter === '0' && !/[0-9]/.test(source[start + 1] ?? '')) return { text: '\\x{0}', end: start + 1 };
  // Backreferences, numbered or named, need backtracking.
  if (/[1-9]/.test(letter) || letter === 'k') return undefined;
  if (letter === 's') return { text: inClass ? whiteSpaceRanges : `[${whiteSpaceRanges}]`, end: start + 1 };
  if (letter === 'S') return inClass ? undefined : { text: `[^${whiteSpaceRanges}]`, end: start + 1 };
  return { text: `\\${letter}`, end: start + 1 };
}
