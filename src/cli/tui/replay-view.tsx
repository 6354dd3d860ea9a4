import { render, useApp, useInput } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { ForgeEvent, RunLogError } from '../../core/index.js';
import { ReplaySession } from './replay-session.js';
import type { ReplaySessionOptions, ReplaySnapshot } from './replay-session.js';
import { RunScreen } from './run-screen.js';
import type { Notice } from './run-view.js';
import { useStreamScroll } from './use-stream-scroll.js';

export interface ReplayAppProps {
  readonly session: ReplaySession;
  /** Whether keys are read. Without them (stdin is not a terminal) the app exits when the replay ends. */
  readonly interactive: boolean;
  /** Why the run log stopped early, shown once every good event has been replayed. */
  readonly error?: RunLogError | undefined;
  /** Called when the user presses Ctrl-C, just before the app exits. */
  readonly onInterrupt?: () => void;
}

/** Redraw rate for the replay clock and spinners between events; see the live view for why not faster. */
const tickMs = 200;

/**
 * The replay viewer: the run view driven by a `ReplaySession`, with a status row for position and keys.
 * Space pauses and resumes, `s` or → steps one event, ↑ ↓ PgUp PgDn Home End scroll the Event stream,
 * q quits and Ctrl-C interrupts. When the replay ends the last frame stays until q, so the final state
 * can be read.
 */
export function ReplayApp({ session, interactive, error, onInterrupt }: ReplayAppProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.snapshot);
  const { exit } = useApp();
  const scroll = useStreamScroll(snapshot.state);
  useTicker(!snapshot.paused && !snapshot.finished);
  useEffect(() => {
    session.start();
    return () => session.dispose();
  }, [session]);
  useEffect(() => {
    if (!interactive && snapshot.finished) exit();
  }, [interactive, snapshot.finished, exit]);
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') {
        onInterrupt?.();
        exit();
        return;
      }
      if (scroll.handleKey(input, key)) return;
      if (key.rightArrow) session.step();
      // Keys pressed faster than a frame arrive as one chunk ("sss"); each one counts.
      for (const character of input) {
        if (character === 'q') exit();
        else if (character === ' ') session.togglePause();
        else if (character === 's') session.step();
      }
    },
    { isActive: interactive },
  );
  return <RunScreen state={snapshot.state} now={session.replayTime()} scrolledBack={scroll.scrolledBack} notices={replayNotices(snapshot, interactive, session.speed, error)} />;
}

export interface ReplayViewOptions extends Omit<ReplaySessionOptions, 'clock'> {
  /** Why the run log stopped early; shown after the last good event. */
  readonly error?: RunLogError | undefined;
  /** Closes the viewer as interrupted when aborted (the command's SIGINT). */
  readonly signal?: AbortSignal;
}

/** How the viewer closed: the user quit (or the replay ended without keys to read), or it was interrupted (Ctrl-C, SIGINT). */
export type ReplayViewClosing = 'closed' | 'interrupted';

/**
 * Replays `events` in the terminal and resolves when the viewer closes: when the user quits, when the
 * replay ends if stdin is not a terminal (no keys can be read then), or when interrupted by Ctrl-C in
 * the view or by `signal`. The final frame stays on screen.
 */
export async function runReplayView(events: readonly ForgeEvent[], options: ReplayViewOptions): Promise<ReplayViewClosing> {
  const session = new ReplaySession(events, options);
  let closing: ReplayViewClosing = 'closed';
  const interrupt = () => {
    closing = 'interrupted';
  };
  // Ctrl-C is read as a key (the terminal is in raw mode), so the app reports it instead of Ink exiting on its own.
  const instance = render(<ReplayApp session={session} interactive={process.stdin.isTTY === true} error={options.error} onInterrupt={interrupt} />, { exitOnCtrlC: false });
  const onAbort = () => {
    interrupt();
    instance.unmount();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (options.signal?.aborted === true) onAbort();
    await instance.waitUntilExit();
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    session.dispose();
  }
  return closing;
}

function replayNotices(snapshot: ReplaySnapshot, interactive: boolean, speed: number, error: RunLogError | undefined): Notice[] {
  const status = replayStatus(snapshot, error);
  const keys = !interactive ? '' : snapshot.finished ? ' · ↑↓ scroll · q quit' : ' · space pause/play · s or → step · ↑↓ scroll · q quit';
  const notices: Notice[] = [{ text: `${status} · replay ${snapshot.delivered}/${snapshot.total} events at ${speed}×${keys}`, tone: 'info' }];
  if (snapshot.finished && error !== undefined) notices.push({ text: `run log error: ${error.message}`, tone: 'error' });
  return notices;
}

function replayStatus(snapshot: ReplaySnapshot, error: RunLogError | undefined): string {
  if (snapshot.finished) return error === undefined ? '■ finished' : snapshot.total === 0 ? '■ no events' : '■ stopped early';
  return snapshot.paused ? '⏸ paused' : '▶ playing';
}

function useTicker(active: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((tick) => tick + 1), tickMs);
    return () => clearInterval(timer);
  }, [active]);
}
