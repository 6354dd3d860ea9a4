import type { QueuedRunSpec } from './run-service.js';

/** A run started in this process: its id and log at once, its result when it ends (or pauses). */
export interface StartedRun<Result> {
  readonly runId: string;
  readonly logFile: string;
  /** Settles once the run has ended (or paused) and everything it recorded is stored. */
  readonly result: Promise<Result>;
}

/**
 * A run request that passed every check of its kind (model, tools, rules, agent version, inputs,
 * conversation), nothing recorded yet (a new conversation is created once the run is admitted): what its record will say, and how to
 * start it here. The front door queues a prepared run's record for a worker, or starts it.
 */
export interface PreparedRun<Result> {
  /** What the run's record says (a queued run is recorded with it); null for a resume, which has its record. */
  readonly record: QueuedRunSpec | null;
  /** The stored run a resume goes on with (its whole id); absent for a new run. */
  readonly resumes?: string;
  /** The conversation it continues (a new one, created once the run is admitted, when the request named none), pinned when it is queued. */
  readonly conversationId?: string;
  /** The version of the skill or agent it runs (`name@version`), pinned when it is queued. */
  readonly pinned?: string;
  /** Starts it in this process; `queuedRunId` takes a queued run instead of creating one (a worker). */
  start(options: { readonly queuedRunId?: string }): Promise<StartedRun<Result>>;
}
