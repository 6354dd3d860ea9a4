import type { Key } from 'ink';
import { useState } from 'react';
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
  const scrolledBack = bottom === null ? 0 : Math.max(0, state.eventCount - bottom);
  const oldest = Math.max(0, state.stream.length - 1);
  const scrollTo = (back: number) => {
    const clamped = Math.max(0, Math.min(back, oldest));
    setBottom(clamped === 0 ? null : state.eventCount - clamped);
  };
  return {
    scrolledBack: Math.min(scrolledBack, oldest),
    handleKey(input, key) {
      if (key.upArrow || input === 'k') scrollTo(scrolledBack + 1);
      else if (key.downArrow || input === 'j') scrollTo(scrolledBack - 1);
      else if (key.pageUp) scrollTo(scrolledBack + pageEntries);
      else if (key.pageDown) scrollTo(scrolledBack - pageEntries);
      else if (key.home || input === 'g') scrollTo(oldest);
      else if (key.end || input === 'G') scrollTo(0);
      else return false;
      return true;
    },
  };
}
