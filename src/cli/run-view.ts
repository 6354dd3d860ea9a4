import type { EventBus } from '../core/index.js';
import { formatEventLine } from './event-line/index.js';

export interface RunView {
  stop(): Promise<void>;
}

/**
 * How a run shows itself while it works: nothing with `--json` (stdout carries only the result), the
 * live terminal view on a TTY, otherwise one plain line per event on stderr.
 */
export async function attachRunView(bus: EventBus, options: { json: boolean; tui: boolean }): Promise<RunView> {
  if (options.json) return { stop: async () => {} };
  if (options.tui && process.stdout.isTTY === true && process.stdin.isTTY === true) {
    // Ink and React load only when the live view is shown.
    const { startLiveView } = await import('./tui/index.js');
    return startLiveView(bus);
  }
  const unsubscribe = bus.subscribe((event) => {
    process.stderr.write(`${formatEventLine(event)}\n`);
  });
  return {
    stop: async () => {
      unsubscribe();
    },
  };
}
