import { render, useInput } from 'ink';
import { isLiveEventBus, type EventBus } from '../../core/index.js';
import { viewStateFromEvents } from './reduce-view-state.js';
import { RunScreen } from './run-screen.js';
import { useStreamScroll } from './use-stream-scroll.js';
import { emptyViewState } from './view-state.js';
import type { ViewEvent, ViewState } from './view-state.js';

export interface LiveViewOptions {
  /** Where to draw; default the process's stdout. */
  readonly stdout?: NodeJS.WriteStream;
  /** Where keys come from; default the process's stdin. Keys are read only when it is a terminal. */
  readonly stdin?: NodeJS.ReadStream;
  /** How often buffered events are folded in and the screen redrawn; default 200 ms. */
  readonly refreshIntervalMs?: number;
  /** Time source for elapsed time and spinners; default `Date.now`. */
  readonly clock?: () => number;
  /** The command prints the run's answer in full right under the view, so the view points to it instead of repeating it. */
  readonly answerPrintedBelow?: boolean;
}

/**
 * A full frame costs Ink tens of milliseconds to lay out and write. Five frames a second keeps spinners
 * and streaming text moving; with nothing new and no spinner, one a second keeps the elapsed time
 * honest. The rest of the CPU is the run's.
 */
const defaultRefreshIntervalMs = 200;
const idleRedrawIntervalMs = 1000;

/** A running live view. */
export interface LiveView {
  /** Stops listening, draws every event received so far, and leaves the final frame on the screen. Idempotent. */
  stop(): Promise<void>;
}

interface LiveScreenProps {
  readonly state: ViewState;
  readonly now: number;
  readonly interactive: boolean;
  readonly answerPrintedBelow: boolean;
}

/**
 * The run screen with the Event stream's scrolling keys. With keys read the terminal is in raw mode, so
 * Ctrl-C arrives as a key: it is handed on as the SIGINT it would have been, to the run's own handler.
 */
function LiveScreen({ state, now, interactive, answerPrintedBelow }: LiveScreenProps) {
  const scroll = useStreamScroll(state);
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') process.kill(process.pid, 'SIGINT');
      else scroll.handleKey(input, key);
    },
    { isActive: interactive },
  );
  return <RunScreen state={state} now={now} scrolledBack={scroll.scrolledBack} answerPrintedBelow={answerPrintedBelow} />;
}

/**
 * Shows a run live in the terminal from the events on `bus`, and from its live events (the model's text
 * as it streams) when the bus carries them. The bus listeners only append to a buffer; folding and
 * drawing happen on a timer, so a producer never waits on rendering however fast it emits. When stdin is
 * a terminal, ↑ ↓ PgUp PgDn Home End scroll the Event stream and Ctrl-C still reaches the run's SIGINT
 * handler. The timer does not keep the process alive on its own.
 */
export function startLiveView(bus: EventBus, options: LiveViewOptions = {}): LiveView {
  const clock = options.clock ?? Date.now;
  const pending: ViewEvent[] = [];
  const append = (event: ViewEvent) => {
    pending.push(event);
  };
  const unsubscribe = bus.subscribe(append);
  const unsubscribeLive = isLiveEventBus(bus) ? bus.subscribeLive(append) : () => {};
  let state = emptyViewState;
  const stdin = options.stdin ?? process.stdin;
  const screen = (now: number) => <LiveScreen state={state} now={now} interactive={stdin.isTTY === true} answerPrintedBelow={options.answerPrintedBelow === true} />;
  const instance = render(screen(clock()), {
    exitOnCtrlC: false,
    // Console output goes to the process's terminal; it only needs routing around the view when the view is there too.
    patchConsole: options.stdout === undefined,
    stdin,
    ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
  });
  let lastDrawnAt = clock();
  const draw = () => {
    if (pending.length > 0) state = viewStateFromEvents(pending.splice(0), state);
    lastDrawnAt = clock();
    instance.rerender(screen(lastDrawnAt));
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
        unsubscribeLive();
        draw();
        instance.unmount();
        await instance.waitUntilExit();
      })();
      return stopped;
    },
  };
}
