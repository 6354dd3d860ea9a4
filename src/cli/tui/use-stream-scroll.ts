import type { Key } from 'ink';
import { useRef, useState } from 'react';
import type { ViewState } from './view-state.js';

/** Entries PgUp and PgDn move by. */
const pageEntries = 10;

export interface StreamScroll {
  /** Entries of the Event stream scrolled past at the bottom; 0 follows the newest. */
  readonly scrolledBack: number;
  /** Applies a scrolling key (↑ ↓ k j PgUp PgDn Home End); false for any other key. */
  handleKey(input: string, key: Key): boolean;
}

/**
 * Scrolling through the Event stream by entries. Scrolled back, the screen stays on the same entries
 * while new events arrive (it is anchored to an event, not to a distance from the newest); scrolled to
 * the bottom (↓ past the newest, or End), it follows the newest again.
 */
export function useStreamScroll(state: ViewState): StreamScroll {
  // null follows the newest entry; otherwise how many events the run had when the screen's bottom entry was newest.
  const [bottom, setBottom] = useState<number | null>(null);
  // Keys can arrive faster than the screen re-renders (a held PgUp, a pasted burst): each key moves from
  // the position the previous key left, and against the newest state, never a render's stale copy.
  const latest = useRef(state);
  latest.current = state;
  const scrolledBack = bottom === null ? 0 : Math.max(0, state.eventCount - bottom);
  const move = (to: (back: number, oldest: number) => number) =>
    setBottom((previous) => {
      const { eventCount, stream } = latest.current;
      const oldest = Math.max(0, stream.length - 1);
      const current = Math.min(previous === null ? 0 : Math.max(0, eventCount - previous), oldest);
      const clamped = Math.max(0, Math.min(to(current, oldest), oldest));
      return clamped === 0 ? null : eventCount - clamped;
    });
  return {
    scrolledBack: Math.min(scrolledBack, Math.max(0, state.stream.length - 1)),
    handleKey(input, key) {
      if (key.upArrow || input === 'k') move((back) => back + 1);
      else if (key.downArrow || input === 'j') move((back) => back - 1);
      else if (key.pageUp) move((back) => back + pageEntries);
      else if (key.pageDown) move((back) => back - pageEntries);
      else if (key.home || input === 'g') move((_back, oldest) => oldest);
      else if (key.end || input === 'G') move(() => 0);
      else return false;
      return true;
    },
  };
}
