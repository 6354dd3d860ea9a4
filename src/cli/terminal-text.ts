/** What a terminal acts on instead of printing: C0 controls (but newline and tab), DEL, and C1 controls. */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern is about
const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** DEL and C1 controls, which JSON.stringify leaves raw (it escapes only C0). */
const rawInJson = /[\u007f-\u009f]/g;

function hexEscape(character: string): string {
  return `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * `text` made safe to write to a terminal: every control character a terminal would act on (ESC and so
 * every escape sequence: OSC 52 clipboard writes, window titles, cursor movement, screen clears; BEL,
 * backspace, carriage return, C1 controls such as CSI U+009B) is shown as a visible `\xHH` instead.
 * Newlines and tabs are kept.
 */
export function terminalText(text: string): string {
  return text.replace(terminalControls, hexEscape);
}

/** `value` with every string in it (object values and array items, not keys) passed through `terminalText`. */
export function terminalSafeValue<Value>(value: Value): Value {
  if (typeof value === 'string') return terminalText(value) as Value;
  if (Array.isArray(value)) return value.map((item: unknown) => terminalSafeValue(item)) as Value;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, terminalSafeValue(item)])) as Value;
}

/**
 * `value` as indented JSON that is safe on a terminal: JSON.stringify already escapes C0 controls, and DEL
 * and C1 controls (which it leaves raw) are escaped as `\u00XX` too, so the output is still the same JSON.
 */
export function terminalJson(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replace(rawInJson, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
