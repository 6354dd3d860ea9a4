import type { ToolboxStatus } from './view-state.js';

/** How a toolbox status looks: its colour and a symbol that still tells the status apart without colour. */
export interface ToolStatusStyle {
  readonly color: string | undefined;
  readonly symbol: string;
}

/** Draft yellow, testing blue, failed red, promoted green; builtins stay in the terminal's own colour. */
export const toolStatusStyle: Record<ToolboxStatus, ToolStatusStyle> = {
  builtin: { color: undefined, symbol: '·' },
  draft: { color: 'yellow', symbol: '○' },
  testing: { color: 'blue', symbol: '◐' },
  failed: { color: 'red', symbol: '✗' },
  promoted: { color: 'green', symbol: '✓' },
};
