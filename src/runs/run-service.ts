import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { describeError, ForgeError, NotFoundError, parseRunState, type AgentPin, type ErrorInfo, type EventBus, type ModelCallCheck, type EventFanOut, type ForgeEvent, type RunKind, type RunOwner, type RunRecord, type RunState, type RunStatus, type Store } from '../core/index.js';
import { finishRun, type LoopPersistence, type LoopResume, type RunSummary } from '../engine/index.js';
import { createRunEmitter, type RunEmitter } from '../events/index.js';
import { CostMeter, costOfCalls, type CostTotals } from '../llm/index.js';
import { admitRun } from '../accounts/index.js';
import { RunRecorder, runLogPath } from './run-log/index.js';
import { endInterruptedRun, endInterruptedRuns, processAlive } from './interrupted-runs.js';
import { followRemoteRun } from './remote-run-events.js';
import { RunEventFeed } from './run-event-feed.js';
import { resolveRun } from './run-reference.js';
import { runLimitsCheck } from './run-limits.js';

export function newRunId(): string {
  return randomBytes(6).toString('hex');
}

/** What a run's work is given: its id, where its events go, what counts its model calls, its cancel signal, and its checkpoints. */
export interface ActiveRun {
  readonly runId: string;
  /** The account the run belongs to (its owner); null for the operator's runs. */
  readonly userId: string | null;
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  readonly signal: AbortSignal;
  readonly logFile: string;
  /** Commits the run's events, and its state, before the loop goes on (see `LoopPersistence`). */
  readonly persistence: LoopPersistence;
}

/** A resumed run's work is also given where it goes on from: its last checkpoint and every event it recorded. */
export interface ResumedRun extends ActiveRun {
  readonly resume: LoopResume;
}

/** A run to start: what it is, and the work, which ends the run through `finishRun`. */
export interface RunSpec<Result extends RunSummary> {
  readonly kind: RunKind;
  readonly task: string;
  readonly model: string;
  readonly conversationId?: string | null;
  /**
   * The new conversation the run starts (`conversationId` is its id), created once the run is admitted,
   * so a start its quota refuses leaves no conversation behind.
   */
  readonly newConversation?: NewConversation;
  /** The account the run is for (its owner); none for the CLI's runs. */
  readonly userId?: string | null;
  /** The service key that started it, when one did (its quota counts the run too). */
  readonly apiKeyId?: string | null;
  /** The agent definition version it runs, recorded with it. */
  readonly agent?: AgentPin;
  /** Cancels the run when it aborts (Ctrl-C, a closed connection), as `cancel` does. */
  readonly signal?: AbortSignal;
  /** A run queued for a worker (`RunService.enqueue`) that this process takes and runs, instead of a new one. */
  readonly queuedRunId?: string;
  execute(run: ActiveRun): Promise<Result>;
}

/** A conversation a run starts: its id, chosen before it exists, and what it is created with. */
export interface NewConversation {
  readonly id: string;
  readonly title: string | null;
  readonly userId: string | null;
}

/** What a queued run is, recorded when it is queued: the worker that takes it runs it under this id. */
export type QueuedRunSpec = Pick<RunSpec<RunSummary>, 'kind' | 'task' | 'model' | 'conversationId' | 'newConversation' | 'userId' | 'apiKeyId' | 'agent'>;

/** A queued run that no worker may take any more: it was cancelled (or taken) first. */
export class RunNotQueuedError extends ForgeError {
  constructor(runId: string, status: string) {
    super({ name: 'RunNotQueuedError', message: `Run ${runId} is not queued any more (it is ${status}); nothing was run.`, hint: 'See where it stands with `forge runs show`.' });
  }
}

/** A stored run to go on with: a check of its state before it is claimed, and the work. */
export interface ResumeSpec<Result extends RunSummary> {
  readonly signal?: AbortSignal;
  /** Throws when the run cannot go on here (e.g. a tool of its set no longer exists); nothing is changed then. */
  check?(state: RunState): void;
  execute(run: ResumedRun): Promise<Result>;
}

/** A run in progress: its id at once, its events live (from any seq), a way to cancel it, and its result. */
export interface RunHandle<Result> {
  readonly runId: string;
  readonly logFile: string;
  /** The run's events from `fromSeq` (default 0), then each new one until `run-end`. */
  events(fromSeq?: number): AsyncIterable<ForgeEvent>;
  cancel(reason?: string): void;
  /**
   * Resolves once the run is recorded and started; rejects when it was refused at its start (a quota of
   * its account or key: `QuotaExceededError`), nothing recorded. An entrance that answers with the run's
   * id awaits it first, so a refusal is answered as one; `result` rejects the same way.
   */
  readonly started: Promise<void>;
  /** Settles once the run has ended (or paused) and everything it recorded is in the run log and the store. */
  readonly result: Promise<Result>;
}

/**
 * Waits until a run just started is recorded, so that a start refused at its admission (a quota of its
 * account or key: `QuotaExceededError`) is thrown to whoever started it, as a refusal, instead of
 * surfacing only in its result; the result's own rejection is then handled.
 */
export async function startedOrRefused(handle: RunHandle<unknown>): Promise<void> {
  try {
    await handle.started;
  } catch (error) {
    handle.result.catch(() => undefined);
    throw error;
  }
}

/** A run that cannot be resumed: finished, running elsewhere, or without a checkpoint. */
export class RunNotResumableError extends ForgeError {
  constructor(runId: string, why: string, hint: string) {
    super({ name: 'RunNotResumableError', message: `Run ${runId} cannot be resumed: ${why}.`, hint });
  }
}

/** A run that may not be deleted as it stands (it is running or waiting), and how to go on. */
export class RunNotDeletableError extends ForgeError {
  readonly runId: string;
  constructor(run: RunRecord) {
    const why =
      run.status === 'running'
        ? `it is running${run.owner === null ? '' : ` (pid ${run.owner.pid} on ${run.owner.host})`}: deleting it would drop a run in progress, and its process would fail to record the rest`
        : 'it waits for an approval: deleting it drops the request unanswered';
    super({
      name: 'RunNotDeletableError',
      message: `Run ${run.id} is not deleted: ${why}.`,
      hint: run.status === 'running' ? 'Stop it first (Ctrl-C in its terminal), or pass --force to delete it anyway.' : `Cancel it first with \`forge runs cancel ${run.id}\`, or pass --force to delete it anyway.`,
    });
    this.runId = run.id;
  }
}

/** A deleted run: its id and the run log file that went with it (null when it had none). */
export interface DeletedRun {
  readonly runId: string;
  readonly logFile: string | null;
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
  /** In the scaled mode: where committed events go to other processes, and where runs other processes run are followed from. */
  readonly fanOut?: EventFanOut;
  /**
   * Checks every model call of every run passes before it is made, after the run's own limits (see
   * `runLimitsCheck`): account quotas, budgets. The composition root chooses them; none by default.
   */
  readonly modelCallChecks?: readonly ModelCallCheck[];
  /**
   * Releases what the run held in this process (its browser context) once it stops running here, however
   * it stopped: completed, failed, cancelled, paused for an approval. Errors are its own to report.
   */
  readonly releaseRun?: (runId: string) => Promise<void>;
}

/**
 * Owns every run's lifecycle: it creates the run id, the `runs` row (what the run is, who runs it,
 * where its log is), the recorder (run log and store), the emitter and the cost meter, hands them to
 * the run's work, and makes sure the run ends: work that throws instead of finishing is ended `failed`
 * with its error, so no run is left `running`. Agent runs, convergence runs, skill replays and direct
 * tool calls (from the CLI, the library and Forge's MCP server) all start here.
 */
export class RunService {
  /** The runs this process runs now, with every event each emitted here, for readers that join late. */
  private readonly active = new Map<string, { feed: RunEventFeed; cancel: (reason: string) => void }>();

  constructor(private readonly options: RunServiceOptions) {}

  /**
   * A run's events after `afterSeq`, each once, in order: what the store holds, then, while this process
   * runs it, every new one until it ends or pauses. A run running in another process gives what the
   * store holds so far (a reader asks again from the last seq it got); in the scaled mode (a fan-out) it
   * is followed live from there instead, until it ends or pauses (see `followRemoteRun`).
   */
  async *eventsAfter(runId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<ForgeEvent> {
    const live = this.active.get(runId);
    if (live === undefined && this.options.fanOut !== undefined) {
      yield* followRemoteRun(this.options.store, this.options.fanOut, runId, afterSeq, signal);
      return;
    }
    const stored = await this.options.store.events.list(runId);
    const liveFrom = live?.feed.firstSeq ?? Number.POSITIVE_INFINITY;
    let last = afterSeq;
    for (const event of stored) {
      if (event.seq <= last || event.seq >= liveFrom) continue;
      last = event.seq;
      yield event;
    }
    if (live === undefined) return;
    for await (const event of live.feed.from(last + 1)) yield event;
  }

  /** Whether this process runs the run now. */
  isActive(runId: string): boolean {
    return this.active.has(runId);
  }

  /** Cancels a run this process runs; false when it runs nowhere here. */
  cancelActive(runId: string, reason = 'cancelled'): boolean {
    const live = this.active.get(runId);
    live?.cancel(reason);
    return live !== undefined;
  }

  /** Every run this process runs now, by id. */
  activeRunIds(): string[] {
    return [...this.active.keys()];
  }

  /**
   * Records a run for a worker to take (the scaled mode): its row, `queued`, with no owner and no log
   * yet. The worker that takes the job starts it with `queuedRunId` (see `start`).
   */
  async enqueue(spec: QueuedRunSpec): Promise<RunRecord> {
    // Admitted here, against its account's and key's quotas: the worker that takes it does not admit it again.
    const run = await admitRun(this.options.store, {
      id: newRunId(),
      status: 'queued',
      kind: spec.kind,
      task: spec.task,
      model: spec.model,
      conversationId: spec.conversationId ?? null,
      userId: spec.userId ?? null,
      apiKeyId: spec.apiKeyId ?? null,
      ...(spec.agent === undefined ? {} : { agent: spec.agent }),
    });
    await this.createConversation(run.id, spec.newConversation);
    return run;
  }

  /**
   * Creates the new conversation of a run just admitted. Should that fail, the run it was for fails
   * too, saying why, instead of staying queued or running with no conversation.
   */
  private async createConversation(runId: string, conversation: NewConversation | undefined): Promise<void> {
    if (conversation === undefined) return;
    try {
      await this.options.store.conversations.create(conversation);
    } catch (error) {
      await this.options.store.runs.update(runId, { status: 'failed', haltReason: 'error', error: `Its conversation could not be created: ${describeError(error).message}` });
      throw error;
    }
  }

  /**
   * Ends a queued run that no worker took (its job was cancelled while it waited): `cancelled`, with the
   * reason. False when it is not queued any more (a worker took it first: it is cancelled there).
   */
  async cancelQueued(runId: string, reason: string): Promise<boolean> {
    const run = await this.options.store.runs.get(runId);
    if (run?.status !== 'queued') return false;
    await this.options.store.runs.update(runId, { status: 'cancelled', haltReason: 'cancelled', error: `Cancelled before a worker took it: ${reason}` });
    return true;
  }

  /** A queued run that failed before it started (its job could not be queued, or the worker refused its request): `failed`, with the error. */
  async failQueued(runId: string, error: unknown): Promise<void> {
    const run = await this.options.store.runs.get(runId);
    if (run?.status !== 'queued') return;
    await this.options.store.runs.update(runId, { status: 'failed', haltReason: 'error', error: describeError(error).message });
  }

  /**
   * A run left `running` by a worker that is gone (its job's lock expired: the queue handed the job to
   * this process), ended as `failed`/`interrupted` like any run whose process died (see
   * `endInterruptedRun`), so that it can be resumed from its last checkpoint here. False when the run is
   * not running (it ended, paused, or was never taken).
   */
  async endAbandoned(runId: string): Promise<boolean> {
    const run = await this.options.store.runs.get(runId);
    if (run?.status !== 'running' || this.active.has(runId)) return false;
    await endInterruptedRun(this.options.store, run);
    return true;
  }

  start<Result extends RunSummary>(spec: RunSpec<Result>): RunHandle<Result> {
    const { store, home, owner } = this.options;
    const runId = spec.queuedRunId ?? newRunId();
    const logFile = runLogPath(home, runId);
    const queuedRunId = spec.queuedRunId;
    return this.launch(runId, logFile, spec.signal, { userId: spec.userId ?? null, apiKeyId: spec.apiKeyId ?? null }, {
      begin:
        queuedRunId === undefined
          ? // The one admission check of every run's start (its account's and key's quotas), atomic with its record; its new conversation once it is admitted.
            async () => {
              await admitRun(store, { id: runId, kind: spec.kind, task: spec.task, model: spec.model, conversationId: spec.conversationId ?? null, owner, logFile, userId: spec.userId ?? null, apiKeyId: spec.apiKeyId ?? null, ...(spec.agent === undefined ? {} : { agent: spec.agent }) });
              await this.createConversation(runId, spec.newConversation);
            }
          : async () => {
              if (!(await store.runs.claim(queuedRunId, owner, ['queued'], { logFile }))) throw new RunNotQueuedError(queuedRunId, (await store.runs.get(queuedRunId))?.status ?? 'gone');
            },
      recorded: [],
      execute: (run) => spec.execute(run),
    });
  }

  /**
   * Goes on with a stored loop run from its last checkpoint, in this process: a run paused for an
   * approval (`waiting`), or one a dead process left (`failed`, `interrupted`). The run keeps its id,
   * its log and its numbering: the resumed run's events follow those it recorded. Claiming the run is
   * atomic, so two processes never resume the same run; the loop then settles the calls it owed results
   * for (see `runLoop`). Refuses (`RunNotResumableError`, `RunStateError`) when there is nothing to go on from.
   */
  async resume<Result extends RunSummary>(reference: string, spec: ResumeSpec<Result>): Promise<RunHandle<Result>> {
    const { store, owner } = this.options;
    const { run, state } = await this.resumable(reference);
    const runId = run.id;
    spec.check?.(state);
    if (!(await store.runs.claim(runId, owner, [run.status]))) throw new RunNotResumableError(runId, 'another process took it over first', 'See where it stands with `forge runs show`.');
    const recorded = await store.events.list(runId);
    return this.launch(runId, run.logFile ?? runLogPath(this.options.home, runId), spec.signal, { userId: run.userId, apiKeyId: run.apiKeyId }, {
      begin: async () => undefined,
      recorded,
      execute: (active) => spec.execute({ ...active, resume: { state, recorded } }),
    });
  }

  /**
   * A stored run that can go on, with its last checkpoint: one that waits for an approval, or one whose
   * process ended before it finished. Refuses (`RunNotResumableError`, `RunStateError`) with the reason
   * otherwise; the one check of it, whether the run goes on here or on a worker.
   */
  async resumable(reference: string): Promise<{ readonly run: RunRecord; readonly state: RunState }> {
    const run = await this.get(reference);
    const runId = run.id;
    const resumable = run.status === 'waiting' || (run.status === 'failed' && run.haltReason === 'interrupted');
    if (!resumable) {
      const why =
        run.status === 'running' ? `it is running (pid ${run.owner?.pid ?? '?'} on ${run.owner?.host ?? '?'})` : run.status === 'queued' ? 'it is queued and has not started' : `it ended ${run.status}${run.haltReason === null ? '' : ` (${run.haltReason})`}`;
      throw new RunNotResumableError(runId, why, 'Only a run that waits for an approval, or one whose process ended before it finished, can be resumed.');
    }
    const raw = await this.options.store.runStates.get(runId);
    if (raw === undefined) throw new RunNotResumableError(runId, `it has no checkpoint (a ${run.kind} run, or one started before checkpoints)`, 'Run the task again.');
    return { run, state: parseRunState(runId, raw) };
  }

  /**
   * Ends a run that waits but cannot go on here (its approvals were answered, and its resume was refused:
   * its model is not configured in this process, a tool of its set is gone): `failed` with halt reason
   * `interrupted` and `error` saying why, so it can be resumed once that is fixed (`forge run --resume`)
   * and nobody is left waiting on it. False when it does not wait any more (another process went on with it).
   */
  async failWaiting(runId: string, error: ErrorInfo): Promise<boolean> {
    const { store, owner } = this.options;
    const run = await this.get(runId);
    if (run.status !== 'waiting' || !(await store.runs.claim(run.id, owner, ['waiting']))) return false;
    const handle = this.launch(run.id, run.logFile ?? runLogPath(this.options.home, run.id), undefined, { userId: run.userId, apiKeyId: run.apiKeyId }, {
      begin: async () => undefined,
      recorded: await store.events.list(run.id),
      execute: async (active) => finishRun(active.emitter, active.meter, { status: 'failed', haltReason: 'interrupted', answer: null, error, startedAt: performance.now() }),
    });
    await handle.result;
    return true;
  }

  private launch<Result extends RunSummary>(
    runId: string,
    logFile: string,
    signal: AbortSignal | undefined,
    by: { readonly userId: string | null; readonly apiKeyId: string | null },
    how: { begin(): Promise<unknown>; recorded: readonly ForgeEvent[]; execute(run: ActiveRun): Promise<Result> },
  ): RunHandle<Result> {
    const { store, bus, fanOut } = this.options;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason ?? 'cancelled');
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const feed = new RunEventFeed(bus, runId);
    this.active.set(runId, { feed, cancel: (reason) => controller.abort(reason) });
    const admitted = (async () => {
      try {
        await how.begin();
      } catch (error) {
        this.active.delete(runId);
        feed.close();
        signal?.removeEventListener('abort', onAbort);
        throw error;
      }
    })();
    const result = (async () => {
      await admitted;
      try {
        let recorder: RunRecorder;
        try {
          recorder = await RunRecorder.open(bus, runId, logFile, store, { recorded: how.recorded, ...(fanOut === undefined ? {} : { committed: (events) => publishCommitted(fanOut, runId, events) }) });
        } catch (error) {
          // A run that cannot have a log does not start; its row says why instead of staying `running`.
          await store.runs.update(runId, { status: 'failed', haltReason: 'error', error: `Its run log ${logFile} could not be opened: ${describeError(error).message}` });
          throw error;
        }
        const emitter = createRunEmitter(bus, runId, Math.max(-1, ...how.recorded.map((event) => event.seq)) + 1);
        // The one pre-call seam: every model call of the run passes its own limits, then the installation's checks.
        const meter = new CostMeter(runId, carriedTotals(how.recorded), { ...by, checks: [runLimitsCheck(controller.signal), ...(this.options.modelCallChecks ?? [])] });
        const persistence: LoopPersistence = {
          commitEvents: () => recorder.commit(),
          // The state is serialized now, as it is. Should it commit before the events it follows and the
          // process die, those events are in the run log, and the next start stores them before anyone
          // can resume the run.
          checkpoint: (state) => store.runStates.save(state),
        };
        const started = performance.now();
        try {
          return await how.execute({ runId, userId: by.userId, emitter, meter, signal: controller.signal, logFile, persistence });
        } catch (error) {
          // Work that throws has not ended its run: it ends here, failed, with the error, so it is never left running.
          if (!feed.ended) finishRun(emitter, meter, { status: 'failed', haltReason: 'error', answer: null, error: describeError(error), startedAt: started });
          throw error;
        } finally {
          await recorder.close();
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
        await this.options.releaseRun?.(runId);
        this.active.delete(runId);
        feed.close();
      }
    })();
    return {
      runId,
      logFile,
      events: (fromSeq = 0) => feed.from(fromSeq),
      cancel: (reason = 'cancelled') => controller.abort(reason),
      started: admitted,
      result,
    };
  }

  /** The host this process runs on, as recorded in the runs it owns. */
  get host(): string {
    return this.options.owner.host;
  }

  /** Stored runs, newest first. */
  list(options: { limit?: number; statuses?: readonly RunStatus[]; before?: string } = {}): Promise<RunRecord[]> {
    return this.options.store.runs.list(options);
  }

  /**
   * One stored run, by its id or a unique prefix of it (see `resolveRun`): `NotFoundError` when there is
   * none, `AmbiguousRunIdError` listing the candidates when several runs start with the prefix.
   */
  get(reference: string): Promise<RunRecord> {
    return resolveRun(this.options.store.runs, reference);
  }

  /** The newest stored run; `NotFoundError` when none is stored. */
  async newest(): Promise<RunRecord> {
    const [newest] = await this.options.store.runs.list({ limit: 1 });
    if (newest === undefined) throw new NotFoundError('run', '--last', 'No run is recorded yet: start one with `forge run "<task>"`.');
    return newest;
  }

  /** Where a stored run's log is (by id or unique prefix; the newest run when none is given); an error saying why when it has none. */
  async runLog(reference?: string): Promise<string> {
    const run = reference === undefined ? await this.newest() : await this.get(reference);
    if (run.logFile === null) throw new NotFoundError('run log of run', run.id, 'It was stored before runs recorded their log file; look for it in FORGE_HOME/runs/.');
    return run.logFile;
  }

  /**
   * Deletes runs (by id or unique prefix) with everything recorded under them and their run log
   * files. All or nothing up front: every reference is resolved and every run checked before any is
   * deleted. A run that is running or waiting is refused (`RunNotDeletableError`) unless `force`.
   */
  async delete(references: readonly string[], options: { readonly force?: boolean } = {}): Promise<DeletedRun[]> {
    const runs: RunRecord[] = [];
    for (const reference of references) {
      const run = await this.get(reference);
      if (!runs.some((other) => other.id === run.id)) runs.push(run);
    }
    const live = runs.find((run) => run.status === 'running' || run.status === 'waiting');
    if (live !== undefined && options.force !== true) throw new RunNotDeletableError(live);
    const deleted: DeletedRun[] = [];
    for (const run of runs) {
      await this.options.store.runs.delete(run.id);
      if (run.logFile !== null) await rm(run.logFile, { force: true });
      deleted.push({ runId: run.id, logFile: run.logFile });
    }
    return deleted;
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

/** Committed events go to the other processes; a fan-out that fails loses only live delivery (readers fall back to the store). */
function publishCommitted(fanOut: EventFanOut, runId: string, events: readonly ForgeEvent[]): void {
  fanOut.publish(runId, events).catch((error: unknown) => process.stderr.write(`forge: could not publish run ${runId}'s events to other processes: ${describeError(error).message}\n`));
}

/** What a run's recorded model calls cost, carried into its resumed meter. */
function carriedTotals(recorded: readonly ForgeEvent[]): CostTotals {
  const calls = recorded.flatMap((event) => (event.type === 'model-call' ? [event] : []));
  return {
    llmCalls: calls.length,
    tokens: { input: calls.reduce((sum, call) => sum + call.tokens.input, 0), output: calls.reduce((sum, call) => sum + call.tokens.output, 0) },
    ...costOfCalls(calls.map((call) => call.cost_usd)),
  };
}
