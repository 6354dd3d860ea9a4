/**
 * Wraps `text` into rows of at most `width` characters: at spaces where it can, hard-breaking words
 * longer than a row, and keeping the text's own line breaks. The terminal UI wraps text itself instead of
 * letting Ink do it because it must know each entry's height to decide what fits on the screen.
 */
export function wrapText(text: string, width: number): string[] {
  const rowWidth = Math.max(1, width);
  return text.split(/\r\n|\r|\n/).flatMap((line) => wrapLine(line.replace(/\t/g, '  '), rowWidth));
}

function wrapLine(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const rows: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > 0 ? space : width;
    rows.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^ /, '');
  }
  rows.push(rest);
  return rows;
}

/**
 * At most `limit` rows of `rows`; when some are dropped the last kept row says how many, so a reader
 * knows there is more (in the run log) rather than believing the output ended there.
 */
export function limitRows(rows: readonly string[], limit: number): string[] {
  if (rows.length <= limit) return [...rows];
  const kept = rows.slice(0, Math.max(0, limit - 1));
  return [...kept, `… ${rows.length - kept.length} more lines in the run log`];
}
