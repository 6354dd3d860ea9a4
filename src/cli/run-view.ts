import type { EventBus } from '../core/index.js';
import { formatEventLine, startLiveView } from './tui/index.js';

export interface RunView {
  stop(): Promise<void>;
}

/**
 * How a run shows itself while it works: nothing with `--json` (stdout carries only the result), the
 * live terminal view on a TTY, otherwise one plain line per event on stderr.
 */
export function attachRunView(bus: EventBus, options: { json: boolean; tui: boolean }): RunView {
  if (options.json) return { stop: async () => {} };
  if (options.tui && process.stdout.isTTY === true && process.stdin.isTTY === true) return startLiveView(bus);
  const unsubscribe = bus.subscribe((event) => {
    process.stderr.write(`${formatEventLine(event)}\n`);
  });
  return {
    stop: async () => {
      unsubscribe();
    },
  };
}
