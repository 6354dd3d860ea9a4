const maximumLines = 200;
const maximumLineLength = 2_000;

/**
 * The lines a guest logs in one run, capped so a guest that logs in a loop cannot exhaust the host. Nothing is lost
 * silently: dropped lines are counted in a final line.
 */
export function createGuestLog(): { append(line: string): void; lines(): string[] } {
  const kept: string[] = [];
  let dropped = 0;
  return {
    append(line) {
      if (kept.length >= maximumLines) {
        dropped++;
        return;
      }
      kept.push(line.length > maximumLineLength ? `${line.slice(0, maximumLineLength)}… (${line.length} characters)` : line);
    },
    lines: () => (dropped === 0 ? [...kept] : [...kept, `… ${dropped} more log lines dropped (at most ${maximumLines} are kept)`]),
  };
}
