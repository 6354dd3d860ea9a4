import { randomBytes } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import { describeError, type EventBus, type ForgeEvent, type RunKind, type RunOwner, type Store } from '../core/index.js';
import { finishRun, type RunSummary } from '../agent/index.js';
import { createRunEmitter, type RunEmitter } from '../events/index.js';
import { CostMeter } from '../llm/index.js';
import { RunRecorder, runLogPath } from '../runlog/index.js';
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

/** A process on this host that still exists (a signal 0 reaches it, or it belongs to someone else). */
export function processAlive(owner: RunOwner, host: string): boolean {
  if (owner.host !== host) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
        const recorder = new RunRecorder(bus, runId, logFile, store);
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

  /**
   * Ends every run left `running` or `waiting` by a process that is gone (same host, its pid dead; a
   * run with no recorded owner counts as gone, since only a process from before owners were recorded
   * could have left it): a `run-end` event, `failed` with halt reason `interrupted`, is appended to its
   * run log and its stored events, and its row says so. Returns the ids it ended.
   */
  async endInterruptedRuns(): Promise<string[]> {
    const { store } = this.options;
    const host = this.options.owner.host;
    const alive = this.options.ownerAlive ?? ((candidate: RunOwner) => processAlive(candidate, host));
    const ended: string[] = [];
    for (const run of await store.runs.list({ statuses: ['running', 'waiting'] })) {
      if (run.owner !== null && alive(run.owner)) continue;
      const events = await store.events.list(run.id);
      const lastSeq = Math.max(-1, ...events.map((event) => event.seq), ...(await loggedSeqs(run.logFile)));
      const end: ForgeEvent = {
        ts: new Date().toISOString(),
        run_id: run.id,
        seq: lastSeq + 1,
        type: 'run-end',
        status: 'failed',
        halt_reason: 'interrupted',
        answer: null,
        llm_calls: run.llmCalls,
        tokens: { input: run.inputTokens, output: run.outputTokens },
        cost_usd: run.costUsd,
        error: { name: 'RunInterruptedError', message: `The process that ran it${run.owner === null ? '' : ` (pid ${run.owner.pid} on ${run.owner.host})`} ended before the run finished.`, hint: 'Run the task again; what it did before it stopped is in its run log.' },
        duration_ms: Math.max(0, Date.now() - Date.parse(run.createdAt)),
      };
      if (run.logFile !== null) await appendLogLine(run.logFile, end);
      await store.transaction(async (writes) => {
        await writes.events.append(end);
        await writes.runs.update(run.id, { status: 'failed', haltReason: 'interrupted', error: end.type === 'run-end' ? (end.error?.message ?? null) : null });
      });
      ended.push(run.id);
    }
    return ended;
  }
}

async function loggedSeqs(logFile: string | null): Promise<number[]> {
  if (logFile === null) return [];
  try {
    return (await readFile(logFile, 'utf8'))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        try {
          return Number((JSON.parse(line) as { seq?: unknown }).seq);
        } catch {
          return -1;
        }
      })
      .filter(Number.isInteger);
  } catch {
    return [];
  }
}

async function appendLogLine(logFile: string, event: ForgeEvent): Promise<void> {
  try {
    await appendFile(logFile, `${JSON.stringify(event)}\n`, { mode: 0o600 });
  } catch {
    // A log that is gone stays gone; the store still records how the run ended.
  }
}
