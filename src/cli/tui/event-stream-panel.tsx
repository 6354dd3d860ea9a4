import { Box } from 'ink';
import type { ForgeEvent } from '../../core/index.js';
import { Panel, panelContentRows, panelContentWidth } from './panel.js';
import { streamItemFromEvent } from './stream-item.js';
import type { StreamItem, StreamItemContext } from './stream-item.js';
import { StyledRowText } from './styled-row.js';

export interface EventStreamPanelProps {
  readonly stream: readonly ForgeEvent[];
  readonly eventCount: number;
  readonly startedAtMs: number | null;
  readonly width: number;
  readonly height: number;
}

/**
 * The scrolling log, filled from the bottom so the screen always ends at the latest event. The oldest
 * entry on screen may be cut off at the top, as in a scrolled terminal; an entry taller than the whole
 * panel shows its beginning.
 */
export function EventStreamPanel({ stream, eventCount, startedAtMs, width, height }: EventStreamPanelProps) {
  const rows = panelContentRows(height);
  const { items, complete } = newestItems(stream, { startedAtMs, width: panelContentWidth(width) }, rows);
  const summary = eventCount > complete ? `${eventCount} events, newest ${complete} shown` : `${eventCount} events`;
  return (
    <Panel title="Events" summary={summary} width={width} height={height}>
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

/**
 * The newest entries that fit in `rows`, plus the one before them when it fits only in part: the column
 * is anchored to the bottom and clipped at the top, so that entry shows its last rows, as a scrolled
 * terminal would. `complete` counts the entries shown whole.
 */
function newestItems(stream: readonly ForgeEvent[], context: StreamItemContext, rows: number): { items: StreamItem[]; complete: number } {
  const items: StreamItem[] = [];
  let used = 0;
  for (let index = stream.length - 1; index >= 0 && used < rows; index -= 1) {
    const event = stream[index];
    if (event === undefined) break;
    const item = streamItemFromEvent(event, context);
    if (items.length === 0 && item.height > rows) return { items: [clipItem(item, rows)], complete: 1 };
    items.unshift(item);
    used += item.height;
  }
  return { items, complete: used > rows ? items.length - 1 : items.length };
}

function clipItem(item: StreamItem, rows: number): StreamItem {
  const border = item.frameColor === undefined ? 0 : 2;
  const kept = item.rows.slice(0, Math.max(1, rows - border));
  return { ...item, rows: kept, height: kept.length + border };
}
