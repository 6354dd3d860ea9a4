import { Box, Text } from 'ink';
import { formatQuantity } from '../event-line/index.js';
import { Panel, panelContentRows, panelContentWidth } from './panel.js';
import { toolStatusStyle } from './tool-status-style.js';
import type { ToolboxEntry } from './view-state.js';

export interface ToolboxPanelProps {
  readonly toolbox: readonly ToolboxEntry[];
  readonly width: number;
  readonly height: number;
}

/** Names longer than this are cut; below it, the status word gives way first when the panel is narrow. */
const preferredNameWidth = 20;
const statusColumnWidth = 9;
const usesColumnWidth = 5;
const revisionsColumnWidth = 4;

/**
 * Every tool with its status (coloured and marked), uses and revisions. When the panel is too short,
 * synthesized tools win over builtins, so a failed tool is never the one hidden, and the last row says
 * how many were left out.
 */
export function ToolboxPanel({ toolbox, width, height }: ToolboxPanelProps) {
  const contentWidth = panelContentWidth(width);
  const showStatusWord = contentWidth - 2 - statusColumnWidth - usesColumnWidth - revisionsColumnWidth >= preferredNameWidth;
  const nameWidth = Math.max(4, contentWidth - 2 - (showStatusWord ? statusColumnWidth : 0) - usesColumnWidth - revisionsColumnWidth);
  const rowsForTools = panelContentRows(height) - 1;
  const visible = selectVisibleTools(toolbox, rowsForTools);
  const hidden = toolbox.length - visible.length;
  const failed = toolbox.filter((entry) => entry.status === 'failed').length;
  return (
    <Panel title="Toolbox" summary={`${formatQuantity(toolbox.length, 'tool')}${failed > 0 ? `, ${failed} failed` : ''}`} width={width} height={height}>
      <Text dimColor wrap="truncate-end">
        {`  ${'tool'.padEnd(nameWidth)}${showStatusWord ? 'status'.padEnd(statusColumnWidth) : ''}${'uses'.padStart(usesColumnWidth)}${'rev'.padStart(revisionsColumnWidth)}`}
      </Text>
      {toolbox.length === 0 ? <Text dimColor>no tools yet</Text> : null}
      {visible.map((entry) => {
        const style = toolStatusStyle[entry.status];
        return (
          <Box key={entry.name}>
            <Text color={style.color} wrap="truncate-end">
              {`${style.symbol} ${fitColumn(entry.name, nameWidth)}${showStatusWord ? entry.status.padEnd(statusColumnWidth) : ''}`}
              {`${String(entry.uses).padStart(usesColumnWidth)}${String(entry.revisions).padStart(revisionsColumnWidth)}`}
            </Text>
          </Box>
        );
      })}
      {hidden > 0 ? <Text dimColor>{`+${hidden} more`}</Text> : null}
    </Panel>
  );
}

function selectVisibleTools(toolbox: readonly ToolboxEntry[], rows: number): readonly ToolboxEntry[] {
  if (toolbox.length <= rows) return toolbox;
  const slots = Math.max(0, rows - 1);
  const keep = new Set(
    [...toolbox]
      .sort((left, right) => Number(left.status === 'builtin') - Number(right.status === 'builtin'))
      .slice(0, slots)
      .map((entry) => entry.name),
  );
  return toolbox.filter((entry) => keep.has(entry.name));
}

function fitColumn(text: string, width: number): string {
  return text.length < width ? text.padEnd(width) : `${text.slice(0, width - 2)}… `;
}
