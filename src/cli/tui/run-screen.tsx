import { RunView } from './run-view.js';
import type { Notice } from './run-view.js';
import { useTerminalSize } from './use-terminal-size.js';
import type { ViewState } from './view-state.js';

export interface RunScreenProps {
  readonly state: ViewState;
  readonly now: number;
  readonly notices?: readonly Notice[];
  readonly scrolledBack?: number;
  readonly answerPrintedBelow?: boolean;
}

/** Smaller than this, the panels cannot show a single row each; the view then overflows rather than vanish. */
const minimumHeight = 14;

/**
 * The run view sized to the terminal, one row short of its height: a frame as tall as the terminal makes
 * Ink clear the whole screen on every redraw, which flickers.
 */
export function RunScreen({ state, now, notices, scrolledBack = 0, answerPrintedBelow = false }: RunScreenProps) {
  const { columns, rows } = useTerminalSize();
  return (
    <RunView
      state={state}
      now={now}
      width={columns}
      height={Math.max(minimumHeight, rows - 1)}
      scrolledBack={scrolledBack}
      answerPrintedBelow={answerPrintedBelow}
      {...(notices === undefined ? {} : { notices })}
    />
  );
}
