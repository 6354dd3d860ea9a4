/**
 * The text stored in a JSON column. `undefined` (and anything else JSON cannot represent at the top
 * level) becomes SQL NULL rather than the text `null`, so an absent value reads back absent and a JSON
 * `null` reads back `null`.
 */
export function toJsonColumn(value: unknown): string | null {
  return JSON.stringify(value) ?? null;
}

/** The value a JSON column holds: the parse of its text, or `undefined` for SQL NULL. */
export function fromJsonColumn(text: string | null): unknown {
  return text === null ? undefined : JSON.parse(text);
}
