/**
 * The few value formats every part of the terminal output shares, so a token count or a cost reads the
 * same in the live view, the replay, the plain trace and the footer.
 */

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `12,345`. */
export function formatCount(value: number): string {
  return integerFormat.format(value);
}

/** `1 model call`, `3 model calls`: a count with its noun, pluralized the simple English way. */
export function formatQuantity(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** `$0.0042` below a dollar (where the cents of a cheap model call would vanish), `$3.17` above. */
export function formatCost(dollars: number): string {
  return `$${dollars.toFixed(dollars < 1 ? 4 : 2)}`;
}

/** `$0.000072`: to the millionth of a dollar, as reports that add up runs (`forge stats`, `forge runs show`) print it. */
export function formatExactCost(dollars: number): string {
  return `$${dollars.toFixed(6)}`;
}

/**
 * A total that may include calls of unknown price: `$0.0042`, or `cost unknown (2 unpriced calls; $0.0042
 * known)`: an unknown total is never shown as a number, and its known part is never hidden. `dollars`
 * formats each figure (`formatCost` unless given).
 */
export function formatCostSum(sum: { readonly costUsd: number | null; readonly pricedCostUsd: number; readonly unpricedCalls: number }, dollars: (value: number) => string = formatCost): string {
  if (sum.costUsd !== null) return dollars(sum.costUsd);
  return `cost unknown (${formatQuantity(sum.unpricedCalls, 'unpriced call')}; ${dollars(sum.pricedCostUsd)} known)`;
}

/** `420ms`, `12.4s`, `3m 05s`, `1h 02m`. */
export function formatDuration(milliseconds: number): string {
  const ms = Math.max(0, Math.round(milliseconds));
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const totalSeconds = Math.floor(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m`;
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

/** `812 B`, `7.4 kB`, `2.1 MB`; the size of a tool result as the model saw it. */
export function formatSize(characters: number): string {
  if (characters < 1000) return `${characters} B`;
  if (characters < 1_000_000) return `${(characters / 1000).toFixed(1)} kB`;
  return `${(characters / 1_000_000).toFixed(1)} MB`;
}

/** Cuts `text` to at most `limit` characters, marking the cut with an ellipsis. */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, Math.max(0, limit - 1))}…`;
}

/** A tool input or argument as compact single-line JSON, cut to `limit` characters. */
export function formatCompactJson(value: unknown, limit: number): string {
  const json = JSON.stringify(value) ?? String(value);
  return truncateText(json, limit);
}

/** `HH:MM:SS.mmm` of an ISO timestamp as recorded (UTC); anything unparseable is shown unchanged. */
export function formatClockTime(isoTimestamp: string): string {
  const ms = Date.parse(isoTimestamp);
  if (Number.isNaN(ms)) return isoTimestamp;
  return new Date(ms).toISOString().slice(11, 23);
}
