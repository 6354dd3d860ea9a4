/** Distinct statement texts kept translated; the SQL Forge runs has a few hundred at most. */
const TRANSLATIONS_KEPT = 512;
const translations = new Map<string, string>();

/**
 * The statement with each `?` placeholder numbered as PostgreSQL wants it (`$1`, `$2`, … in order),
 * leaving alone a `?` inside a string literal (`'…'`, with `''` as a quote inside it), a quoted
 * identifier (`"…"`) or a comment (`-- …`, `/* … *\/`). Each distinct text is translated once and
 * kept, so the statements a busy run repeats cost a map lookup.
 */
export function numberedPlaceholders(sql: string): string {
  const known = translations.get(sql);
  if (known !== undefined) return known;
  const translated = translate(sql);
  translations.set(sql, translated);
  if (translations.size > TRANSLATIONS_KEPT) translations.delete(translations.keys().next().value as string);
  return translated;
}

function translate(sql: string): string {
  let out = '';
  let next = 1;
  let index = 0;
  while (index < sql.length) {
    const character = sql[index]!;
    const end = skippedEnd(sql, index);
    if (end > index) {
      out += sql.slice(index, end);
      index = end;
    } else if (character === '?') {
      out += `$${next++}`;
      index += 1;
    } else {
      out += character;
      index += 1;
    }
  }
  return out;
}

/** Where the literal, quoted identifier or comment starting at `start` ends (past its closing mark), or `start` when none starts there. */
function skippedEnd(sql: string, start: number): number {
  const character = sql[start];
  if (character === "'" || character === '"') {
    // A doubled quote inside is the quote itself; the literal goes on.
    let index = start + 1;
    while (index < sql.length) {
      if (sql[index] === character) {
        if (sql[index + 1] !== character) return index + 1;
        index += 2;
      } else index += 1;
    }
    return sql.length;
  }
  if (character === '-' && sql[start + 1] === '-') {
    const newline = sql.indexOf('\n', start);
    return newline === -1 ? sql.length : newline;
  }
  if (character === '/' && sql[start + 1] === '*') {
    const close = sql.indexOf('*/', start + 2);
    return close === -1 ? sql.length : close + 2;
  }
  return start;
}
