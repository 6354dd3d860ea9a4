import { randomBytes } from 'node:crypto';
import { describeError, NotFoundError, type EventBus, type ForgeEvent, type RunKind, type RunOwner, type RunRecord, type RunStatus, type Store } from '../core/index.js';
import { finishRun, type RunSummary } from '../agent/index.js';
import { createRunEmitter, type RunEmitter } from '../events/index.js';
import { CostMeter } from '../llm/index.js';
import { RunRecorder, runLogPath } from '../runlog/index.js';
import { endInterruptedRuns, processAlive } from './interrupted-runs.js';
import { RunEventFeed } from './run-event-feed.js';

export function newRunId(): string {
  return randomBytes(6).toString('hex');
}

/** What a run's work is given: its id, where its events go, what counts its model calls, and its cancel signal. */
export interface ActiveRun {
  readonly runId: string;
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly signal: AbortSignal;
  readonly logFile: string;
}

/** A run to start: what it is, and the work, which ends the run through `finishRun`. */
export interface RunSpec<Result extends RunSummary> {
  readonly kind: RunKind;
  readonly task: string;
  readonly model: string;
  readonly conversationId?: string | null;
  /** Cancels the run when it aborts (Ctrl-C, a closed connection), as `cancel` does. */
  readonly signal?: AbortSignal;
  execute(run: ActiveRun): Promise<Result>;
}

/** A run in progress: its id at once, its events live (from any seq), a way to cancel it, and its result. */
export interface RunHandle<Result> {
  readonly runId: string;
  readonly logFile: string;
  /** The run's events from `fromSeq` (default 0), then each new one until `run-end`. */
  events(fromSeq?: number): AsyncIterable<ForgeEvent>;
  cancel(reason?: string): void;
  /** Settles once the run has ended and everything it recorded is in the run log and the store. */
  readonly result: Promise<Result>;
}

export interface RunServiceOptions {
  readonly store: Store;
  readonly bus: EventBus;
  /** FORGE_HOME: run logs go to its `runs/` folder. */
  readonly home: string;
  /** This process, recorded on every run it starts. */
  readonly owner: RunOwner;
  /** Whether a run's owner still runs (default: same host and a live pid); a run whose owner is gone is interrupted. */
  readonly ownerAlive?: (owner: RunOwner) => boolean;
}

/**
 * Owns every run's lifecycle: it creates the run id, the `runs` row (what the run is, who runs it,
 * where its log is), the recorder (run log and store), the emitter and the cost meter, hands them to
 * the run's work, and makes sure the run ends: work that throws instead of finishing is ended `failed`
 * with its error, so no run is left `running`. Agent runs, convergence runs, skill replays and direct
 * tool calls (from the CLI, the library and Forge's MCP server) all start here.
 */
export class RunService {
  constructor(private readonly options: RunServiceOptions) {}

  start<Result extends RunSummary>(spec: RunSpec<Result>): RunHandle<Result> {
    const { store, bus, home, owner } = this.options;
    const runId = newRunId();
    const logFile = runLogPath(home, runId);
    const controller = new AbortController();
    const onAbort = () => controller.abort(spec.signal?.reason ?? 'cancelled');
    if (spec.signal?.aborted === true) onAbort();
    else spec.signal?.addEventListener('abort', onAbort, { once: true });
    const feed = new RunEventFeed(bus, runId);
    const result = (async () => {
      try {
        await store.runs.create({ id: runId, kind: spec.kind, task: spec.task, model: spec.model, conversationId: spec.conversationId ?? null, owner, logFile });
        let recorder: RunRecorder;
        try {
          recorder = await RunRecorder.open(bus, runId, logFile, store);
        } catch (error) {
          // A run that cannot have a log does not start; its row says why instead of staying `running`.
          await store.runs.update(runId, { status: 'failed', haltReason: 'error', error: `Its run log ${logFile} could not be opened: ${describeError(error).message}` });
          throw error;
        }
        const emitter = createRunEmitter(bus, runId);
        const meter = new CostMeter(runId);
        const started = performance.now();
        try {
          return await spec.execute({ runId, emitter, meter, signal: controller.signal, logFile });
        } catch (error) {
          // Work that throws has not ended its run: it ends here, failed, with the error, so it is never left running.
          if (!feed.ended) finishRun(emitter, meter, { status: 'failed', haltReason: 'error', answer: null, error: describeError(error), startedAt: started });
          throw error;
        } finally {
          await recorder.close();
        }
      } finally {
        spec.signal?.removeEventListener('abort', onAbort);
        feed.close();
      }
    })();
    return {
      runId,
      logFile,
      events: (fromSeq = 0) => feed.from(fromSeq),
      cancel: (reason = 'cancelled') => controller.abort(reason),
      result,
    };
  }

  /** Stored runs, newest first. */
  list(options: { limit?: number; statuses?: readonly RunStatus[] } = {}): Promise<RunRecord[]> {
    return this.options.store.runs.list(options);
  }

  /** One stored run, by id; a clear error when there is none. */
  async get(runId: string): Promise<RunRecord> {
    const run = await this.options.store.runs.get(runId);
    if (run === undefined) throw new NotFoundError('run', runId, 'List runs with `forge runs list`.');
    return run;
  }

  /**
   * Ends every run left `running` or `waiting` by a process that is gone (same host, its pid dead), as
   * `failed` with halt reason `interrupted`; see `endInterruptedRuns`. Returns the ids it ended.
   */
  endInterruptedRuns(): Promise<string[]> {
    const host = this.options.owner.host;
    return endInterruptedRuns(this.options.store, this.options.ownerAlive ?? ((candidate: RunOwner) => processAlive(candidate, host)));
  }
}
