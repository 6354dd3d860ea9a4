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

/**
 * A JSON column whose reader judges the value (a toolbox entry, a skill document): the parse of its
 * text, or the raw text itself when it no longer parses (a row damaged outside Forge), so one damaged
 * row never keeps the others from being read, and the reader can name what is broken.
 */
export function fromJudgedJsonColumn(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
