/**
 * Python's string order (`sorted`, `<`): by code point. JavaScript's default sort compares UTF-16
 * code units, which puts astral characters before U+E000–U+FFFF.
 */
export function comparePythonStrings(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done === true || y.done === true) return x.done === true ? (y.done === true ? 0 : -1) : 1;
    const difference = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
}

/** Printable ASCII without the single quote or backslash: repr only adds the quotes. */
const plainAscii = /^[ -&(-[\]-~]*$/;
const notPrintable = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const reprEscapes: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Python's `repr(text)`: single quotes unless the text holds a single quote and no double quote;
 * backslash, the quote, tab, newline and carriage return escaped; characters Python does not count as
 * printable (controls, format, unassigned, private use, separators other than the space) as
 * `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
 */
export function reprPythonString(text: string): string {
  if (plainAscii.test(text)) return `'${text}'`;
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = '';
  for (const character of text) {
    if (character === quote) body += `\\${quote}`;
    else if (reprEscapes[character] !== undefined) body += reprEscapes[character];
    else if (character === ' ' || !notPrintable.test(character)) body += character;
    else body += hexEscape(character.codePointAt(0)!);
  }
  return `${quote}${body}${quote}`;
}

function hexEscape(codePoint: number): string {
  const hex = codePoint.toString(16);
  if (codePoint <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (codePoint <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}
