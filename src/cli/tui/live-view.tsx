import { render } from 'ink';
import type { EventBus, ForgeEvent } from '../../core/index.js';
import { viewStateFromEvents } from './reduce-view-state.js';
import { RunScreen } from './run-screen.js';
import { emptyViewState } from './view-state.js';

export interface LiveViewOptions {
  /** Where to draw; default the process's stdout. */
  readonly stdout?: NodeJS.WriteStream;
  /** How often buffered events are folded in and the screen redrawn; default 200 ms. */
  readonly refreshIntervalMs?: number;
  /** Time source for elapsed time and spinners; default `Date.now`. */
  readonly clock?: () => number;
}

/**
 * A full frame costs Ink tens of milliseconds to lay out and write. Five frames a second keeps spinners
 * moving; with nothing new and no spinner, one a second keeps the elapsed time honest. The rest of the
 * CPU is the run's.
 */
const defaultRefreshIntervalMs = 200;
const idleRedrawIntervalMs = 1000;

/** A running live view. */
export interface LiveView {
  /** Stops listening, draws every event received so far, and leaves the final frame on the screen. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Shows a run live in the terminal from the events on `bus`. The bus listener only appends to a buffer;
 * folding and drawing happen on a timer, so a producer never waits on rendering however fast it emits.
 * The view reads no keys and never puts the terminal in raw mode, so Ctrl-C still reaches the run's own
 * SIGINT handler. The timer does not keep the process alive on its own.
 */
export function startLiveView(bus: EventBus, options: LiveViewOptions = {}): LiveView {
  const clock = options.clock ?? Date.now;
  const pending: ForgeEvent[] = [];
  const unsubscribe = bus.subscribe((event) => {
    pending.push(event);
  });
  let state = emptyViewState;
  const instance = render(<RunScreen state={state} now={clock()} />, {
    exitOnCtrlC: false,
    // Console output goes to the process's terminal; it only needs routing around the view when the view is there too.
    patchConsole: options.stdout === undefined,
    ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
  });
  let lastDrawnAt = clock();
  const draw = () => {
    if (pending.length > 0) state = viewStateFromEvents(pending.splice(0), state);
    lastDrawnAt = clock();
    instance.rerender(<RunScreen state={state} now={lastDrawnAt} />);
  };
  const isFrameDue = () => {
    if (pending.length > 0) return true;
    if (state.end !== null) return false;
    // Spinners need frames; otherwise only the elapsed time moves, and once a second is enough for it.
    return state.modelCallsInFlight.length > 0 || clock() - lastDrawnAt >= idleRedrawIntervalMs;
  };
  const timer = setInterval(() => {
    if (isFrameDue()) draw();
  }, options.refreshIntervalMs ?? defaultRefreshIntervalMs);
  timer.unref();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        unsubscribe();
        draw();
        instance.unmount();
        await instance.waitUntilExit();
      })();
      return stopped;
    },
  };
}
