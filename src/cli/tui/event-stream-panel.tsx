import { Box } from 'ink';
import type { EventOf, ForgeEvent } from '../../core/index.js';
import { formatQuantity } from '../event-line/index.js';
import { Panel, panelContentRows, panelContentWidth } from './panel.js';
import { collapseStreamItem, fitStreamItem, streamItemFromDraft, streamItemFromEvent, streamItemKey } from './stream-item.js';
import type { AnswerPlacement, StreamItem, StreamItemContext } from './stream-item.js';
import { StyledRowText } from './styled-row.js';
import type { TextDraft } from './view-state.js';

export interface EventStreamPanelProps {
  readonly stream: readonly ForgeEvent[];
  readonly eventCount: number;
  readonly startedAtMs: number | null;
  /** The text streaming in, drawn under the newest event. */
  readonly draft?: TextDraft | null;
  readonly end?: EventOf<'run-end'> | null;
  /** Entries scrolled past at the bottom: 0 shows the newest. */
  readonly scrolledBack?: number;
  /** The command prints the answer right under the view, so the view does not repeat it. */
  readonly answerPrintedBelow?: boolean;
  readonly width: number;
  readonly height: number;
}

/**
 * The scrolling log, filled from the bottom so the screen ends at the latest event (or, scrolled back,
 * at the entry `scrolledBack` entries above it). A plain entry at the top that does not fit is cut off
 * there, as in a scrolled terminal; a framed one (a failed verification) is never cropped: at the top
 * it shrinks to its headline with a pointer to scroll to it, and once it is the bottom entry it is
 * drawn whole. An entry taller than the whole panel shows its beginning, with a count of the rows left
 * out.
 */
export function EventStreamPanel({ stream, eventCount, startedAtMs, draft = null, end = null, scrolledBack = 0, answerPrintedBelow = false, width, height }: EventStreamPanelProps) {
  const rows = panelContentRows(height);
  const answer = answerPlacement(stream, end, answerPrintedBelow);
  const context: StreamItemContext = { startedAtMs, width: panelContentWidth(width), ...(answer === undefined ? {} : { answer }) };
  const skipped = Math.max(0, Math.min(scrolledBack, stream.length - 1));
  const { items, complete } = newestItems(stream.slice(0, stream.length - skipped), skipped === 0 ? draft : null, context, rows);
  return (
    <Panel title="Events" summary={streamSummary(eventCount, complete, skipped)} width={width} height={height}>
      <Box flexDirection="column" height={rows} justifyContent="flex-end" overflow="hidden">
        {items.map((item) => (
          <Box
            key={item.key}
            flexDirection="column"
            flexShrink={0}
            borderStyle={item.frameColor === undefined ? undefined : 'round'}
            borderColor={item.frameColor}
            paddingX={item.frameColor === undefined ? 0 : 1}
          >
            {item.rows.map((row, index) => (
              <StyledRowText key={index} row={row} />
            ))}
          </Box>
        ))}
      </Box>
    </Panel>
  );
}

function streamSummary(eventCount: number, complete: number, skipped: number): string {
  const total = formatQuantity(eventCount, 'event');
  if (skipped > 0) return `${total}, ${complete} shown, ${skipped} newer below · ↓ or End for the newest`;
  return eventCount > complete ? `${total}, newest ${complete} shown` : total;
}

/** Where the ended run's answer is shown; undefined while the run goes on or when it has none. */
function answerPlacement(stream: readonly ForgeEvent[], end: EventOf<'run-end'> | null, printedBelow: boolean): AnswerPlacement | undefined {
  if (end === null || end.answer === null) return undefined;
  const source = stream.findLast((event) => event.type === 'assistant-text' && event.text === end.answer);
  return { entryKey: source === undefined ? null : streamItemKey(source), printedBelow };
}

/**
 * The newest entries that fit in `rows` (the draft, when given, below them all), plus the one before
 * them when it fits only in part. `complete` counts the entries shown whole.
 */
function newestItems(stream: readonly ForgeEvent[], draft: TextDraft | null, context: StreamItemContext, rows: number): { items: StreamItem[]; complete: number } {
  const items: StreamItem[] = [];
  let used = 0;
  let complete = 0;
  if (draft !== null) {
    const shown = fitStreamItem(streamItemFromDraft(draft, context), rows);
    items.push(shown);
    used += shown.height;
  }
  for (let index = stream.length - 1; index >= 0 && used < rows; index -= 1) {
    const event = stream[index];
    if (event === undefined) break;
    const whole = streamItemFromEvent(event, context);
    const left = rows - used;
    if (whole.height <= left) {
      items.unshift(whole);
      used += whole.height;
      complete += 1;
      continue;
    }
    // The bottom entry always shows, as much of it as fits; an older one at the top is cut as its kind allows.
    if (items.length === 0) items.unshift(fitStreamItem(whole, left));
    else items.unshift(whole.frameColor === undefined ? whole : collapseStreamItem(whole));
    break;
  }
  return { items, complete };
}
