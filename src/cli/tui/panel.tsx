import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

export interface PanelProps {
  readonly title: string;
  /** Dim text after the title, e.g. a count. */
  readonly summary?: string;
  readonly width: number;
  readonly height: number;
  readonly borderColor?: string;
  readonly children: ReactNode;
}

/**
 * A bordered box with a title row. Its size is fixed by the caller and its content is clipped to it, so
 * one panel that grows can never push the others off the screen.
 */
export function Panel({ title, summary, width, height, borderColor, children }: PanelProps) {
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={borderColor} paddingX={1} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>{title}</Text>
        {summary === undefined ? null : <Text dimColor>{` ${summary}`}</Text>}
      </Text>
      {children}
    </Box>
  );
}

/** Rows available for content inside a panel of `height`: minus two borders and the title row. */
export function panelContentRows(height: number): number {
  return Math.max(0, height - 3);
}

/** Columns available for content inside a panel of `width`: minus two borders and two padding columns. */
export function panelContentWidth(width: number): number {
  return Math.max(1, width - 4);
}
