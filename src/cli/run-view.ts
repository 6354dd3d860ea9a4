import type { EventBus } from '../core/index.js';
import { formatEventLine } from './event-line/index.js';
import { printError } from './terminal-output.js';

export interface RunView {
  stop(): Promise<void>;
}

/**
 * How a run shows itself while it works: nothing with `--json` (stdout carries only the result), the
 * live terminal view on a TTY (outside CI), otherwise one plain line per event on stderr.
 */
export async function attachRunView(bus: EventBus, options: { json: boolean; tui: boolean }): Promise<RunView> {
  if (options.json) return { stop: async () => {} };
  // Under CI (CI=true) Ink draws only the final frame, so a CI terminal gets the plain trace instead.
  const inCi = ['CI', 'CONTINUOUS_INTEGRATION'].some((name) => (process.env[name] ?? '0') !== '0' && process.env[name] !== 'false');
  if (options.tui && !inCi && process.stdout.isTTY === true && process.stdin.isTTY === true) {
    // Ink and React load only when the live view is shown.
    const { startLiveView } = await import('./tui/index.js');
    // `forge run` prints the answer on stdout under the view's last frame.
    return startLiveView(bus, { answerPrintedBelow: true });
  }
  const unsubscribe = bus.subscribe((event) => {
    printError(`${formatEventLine(event)}\n`);
  });
  return {
    stop: async () => {
      unsubscribe();
    },
  };
}
