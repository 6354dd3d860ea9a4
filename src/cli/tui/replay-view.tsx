import { render, useApp, useInput } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { ForgeEvent, RunLogError } from '../../core/index.js';
import { ReplaySession } from './replay-session.js';
import type { ReplaySessionOptions, ReplaySnapshot } from './replay-session.js';
import { RunScreen } from './run-screen.js';
import type { Notice } from './run-view.js';

export interface ReplayAppProps {
  readonly session: ReplaySession;
  /** Whether keys are read. Without them (stdin is not a terminal) the app exits when the replay ends. */
  readonly interactive: boolean;
  /** Why the run log stopped early, shown once every good event has been replayed. */
  readonly error?: RunLogError | undefined;
}

/** Redraw rate for the replay clock and spinners between events; see the live view for why not faster. */
const tickMs = 200;

/**
 * The replay viewer: the run view driven by a `ReplaySession`, with a status row for position and keys.
 * Space pauses and resumes, `s` or → steps one event, q (or Ctrl-C) quits. When the replay ends the last
 * frame stays until q, so the final state can be read.
 */
export function ReplayApp({ session, interactive, error }: ReplayAppProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.snapshot);
  const { exit } = useApp();
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
  return <RunScreen state={snapshot.state} now={session.replayTime()} notices={replayNotices(snapshot, interactive, session.speed, error)} />;
}

export interface ReplayViewOptions extends Omit<ReplaySessionOptions, 'clock'> {
  /** Why the run log stopped early; shown after the last good event. */
  readonly error?: RunLogError | undefined;
}

/**
 * Replays `events` in the terminal and resolves when the viewer closes: when the user quits, or when the
 * replay ends if stdin is not a terminal (no keys can be read then). The final frame stays on screen.
 */
export async function runReplayView(events: readonly ForgeEvent[], options: ReplayViewOptions): Promise<void> {
  const session = new ReplaySession(events, options);
  const instance = render(<ReplayApp session={session} interactive={process.stdin.isTTY === true} error={options.error} />);
  try {
    await instance.waitUntilExit();
  } finally {
    session.dispose();
  }
}

function replayNotices(snapshot: ReplaySnapshot, interactive: boolean, speed: number, error: RunLogError | undefined): Notice[] {
  const status = replayStatus(snapshot, error);
  const keys = !interactive ? '' : snapshot.finished ? ' · q quit' : ' · space pause/play · s or → step · q quit';
  const notices: Notice[] = [{ text: `${status} · replay ${snapshot.delivered}/${snapshot.total} events at ${speed}×${keys}`, tone: 'info' }];
  if (snapshot.finished && error !== undefined) notices.push({ text: `run log error: ${error.message}`, tone: 'error' });
  return notices;
}

function replayStatus(snapshot: ReplaySnapshot, error: RunLogError | undefined): string {
  if (snapshot.finished) return error === undefined ? '■ finished' : '■ stopped at a bad line';
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
