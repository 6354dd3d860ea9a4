import type { ForgeEvent } from '../../core/index.js';
import { reduceViewState } from './reduce-view-state.js';
import { emptyViewState } from './view-state.js';
import type { ViewState } from './view-state.js';

export interface ReplaySessionOptions {
  /** Playback speed: recorded gaps between events are divided by it. Must be positive. */
  /** Playback speed, as given. */
  readonly speed: number;
  /** Begin paused, so the first events can be stepped through one at a time. */
  readonly startPaused?: boolean;
  /** The longest a replay waits between two events, after dividing by `speed`; default 2 s. */
  readonly maximumGapMs?: number;
  /** Real time source; default `Date.now`. */
  readonly clock?: () => number;
}

/** Where a replay stands; a new object after every change, the same object otherwise. */
export interface ReplaySnapshot {
  readonly state: ViewState;
  readonly delivered: number;
  readonly total: number;
  readonly paused: boolean;
  readonly finished: boolean;
}

/** Long idle stretches (a slow model, a human approval) would otherwise stall the replay for minutes. */
const defaultMaximumGapMs = 2000;

/**
 * Plays recorded events into a view state at the pace they were recorded (gaps divided by `speed`,
 * capped), with pause, resume and single steps. It keeps a replay clock, the recorded time the replay
 * has reached, which runs at `speed` between events and stops while paused, so elapsed times and
 * spinners in the view show recorded time, not the time spent watching.
 */
export class ReplaySession {
  private readonly events: readonly ForgeEvent[];
  /** Playback speed, as given. */
  readonly speed: number;
  private readonly maximumGapMs: number;
  private readonly clock: () => number;
  private readonly listeners = new Set<() => void>();
  private state: ViewState = emptyViewState;
  private delivered = 0;
  private paused: boolean;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** The replay clock is `anchorReplayMs` at real time `anchorRealMs`, advancing at `speed` while playing. */
  private anchorReplayMs: number;
  private anchorRealMs: number;
  private current: ReplaySnapshot;

  constructor(events: readonly ForgeEvent[], options: ReplaySessionOptions) {
    if (!(options.speed > 0) || !Number.isFinite(options.speed)) throw new RangeError(`replay speed must be a positive number, got ${options.speed}`);
    this.events = events;
    this.speed = options.speed;
    this.maximumGapMs = options.maximumGapMs ?? defaultMaximumGapMs;
    this.clock = options.clock ?? Date.now;
    this.paused = options.startPaused === true;
    this.anchorReplayMs = this.recordedTimeOf(0) ?? 0;
    this.anchorRealMs = this.clock();
    this.current = this.buildSnapshot();
  }

  /** Begins playback (or waits for `togglePause`/`step` when started paused). Idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.anchorRealMs = this.clock();
    if (!this.paused) this.scheduleNext();
  }

  snapshot = (): ReplaySnapshot => this.current;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The recorded time the replay has reached: it never runs past the next undelivered event. */
  replayTime(): number {
    const next = this.recordedTimeOf(this.delivered);
    return next === null ? this.anchorReplayMs : Math.min(this.playhead(), next);
  }

  togglePause(): void {
    if (this.isFinished()) return;
    if (this.paused) {
      this.paused = false;
      this.anchorRealMs = this.clock();
      this.started = true;
      this.scheduleNext();
    } else {
      this.anchorReplayMs = this.replayTime();
      this.anchorRealMs = this.clock();
      this.paused = true;
      this.cancelTimer();
    }
    this.publish();
  }

  /** Pauses if playing, then delivers exactly one event. Does nothing once every event is delivered. */
  step(): void {
    if (this.isFinished()) return;
    this.cancelTimer();
    this.paused = true;
    this.apply();
    this.publish();
  }

  /** Stops the timer for good; the session delivers nothing more. */
  dispose(): void {
    this.cancelTimer();
    this.listeners.clear();
  }

  private isFinished(): boolean {
    return this.delivered >= this.events.length;
  }

  /** Where the replay clock would be if it never waited for events: the recorded time that is due now. */
  private playhead(): number {
    if (this.paused || !this.started) return this.anchorReplayMs;
    return this.anchorReplayMs + (this.clock() - this.anchorRealMs) * this.speed;
  }

  // Everything already due goes in one batch and one redraw: at high speed several events fall due within
  // the time one frame takes to draw, and drawing each would make the replay as slow as the renderer.
  private deliverDue(): void {
    const playhead = this.playhead();
    this.apply();
    for (let next = this.recordedTimeOf(this.delivered); next !== null && next <= playhead; next = this.recordedTimeOf(this.delivered)) {
      this.apply();
    }
    this.publish();
    this.scheduleNext();
  }

  private apply(): void {
    const event = this.events[this.delivered];
    if (event === undefined) return;
    this.state = reduceViewState(this.state, event);
    this.delivered += 1;
    this.anchorReplayMs = Math.max(this.anchorReplayMs, this.recordedTimeOf(this.delivered - 1) ?? this.anchorReplayMs);
    this.anchorRealMs = this.clock();
  }

  private scheduleNext(): void {
    this.cancelTimer();
    if (this.isFinished()) return;
    const next = this.recordedTimeOf(this.delivered);
    const wait = next === null ? 0 : (next - this.replayTime()) / this.speed;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.deliverDue();
    }, Math.min(this.maximumGapMs, Math.max(0, Math.ceil(wait))));
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private recordedTimeOf(index: number): number | null {
    const event = this.events[index];
    if (event === undefined) return null;
    const ms = Date.parse(event.ts);
    return Number.isNaN(ms) ? null : ms;
  }

  private publish(): void {
    this.current = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }

  private buildSnapshot(): ReplaySnapshot {
    return { state: this.state, delivered: this.delivered, total: this.events.length, paused: this.paused, finished: this.isFinished() };
  }
}
