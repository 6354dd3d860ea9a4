import { ForgeError, parseRunRequest, type AnyEventBody, type ApprovalGate, type Principal, type RunRecord, type RunRequest, type RunRequestInput } from '../core/index.js';
import type { ResolvedModel } from '../llm/index.js';
import type { SkillDocument } from '../skills/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { refuseStartPastQuota } from '../accounts/index.js';
import { storedApprovals } from '../policy/approvals/stored-approvals.js';
import { RunService, type RunServiceOptions } from './run-service.js';
import type { PreparedRun, StartedRun } from './prepared-run.js';
import { prepareTaskRun, type RunTaskResult } from './task-runs.js';
import { prepareAgentRun } from './agent-runs.js';
import { prepareSkillReplay, type RunSkillResult } from './skill-runs.js';
import { prepareToolCall, type ToolCallResult } from './tool-calls.js';
import { prepareResume } from './resume-task.js';
import { RunJobMismatchError, recordDisagreements } from './queued-run-checks.js';
import { RUN_JOB, RUN_JOB_RETRY, type RunJobPayload, type RunJobValue } from './run-jobs-queue.js';

/** Who a run is for: the account it belongs to (null: the installation's operator, the CLI). */
export type RunPrincipal = Pick<Principal, 'userId'> & {
  /** The service key that asked for the run, when one did: its quota counts the run, as its account's does. */
  readonly apiKeyId?: string | null;
};

/**
 * What a run is given in this process besides its request: parts that are not data and never cross to
 * a worker (the library's and the CLI's models built in code, a terminal's approval gate, a signal).
 */
export interface RunExtras {
  /** Cancels the run (or a queued one's job) when it aborts (Ctrl-C, a closed connection). */
  readonly signal?: AbortSignal;
  /** Who answers the run's approvals; default the front door's choice for the kind (see `submit`). */
  readonly approvals?: ApprovalGate;
  /** A model built in code, instead of the request's slug (tests, the library, cassettes). */
  readonly model?: ResolvedModel;
  /** A skill replay's rescue model built in code (tests, benchmarks); FORGE_RESCUE_MODEL and the run's model otherwise. */
  readonly rescueModel?: ResolvedModel;
  readonly maxRetries?: number;
  /** Events that open the run's log before its loop (why no stored skill replaced the agent). */
  readonly preludeEvents?: readonly AnyEventBody[];
  /** A skill document in hand, replayed instead of the stored skill the request names (tests). */
  readonly skillDocument?: SkillDocument;
}

/** What a run of each kind ends with. */
export type RunResultOf<Kind extends RunRequest['kind']> = Kind extends 'skill_replay' ? RunSkillResult : Kind extends 'tool_call' ? ToolCallResult : RunTaskResult;

/** A run the front door took: its id at once; where it runs; its result when it ends. */
export interface SubmittedRun<Result> {
  readonly runId: string;
  /** Queued for a worker (the scaled mode) rather than started in this process. */
  readonly queued: boolean;
  /**
   * The run's result once it ends (or pauses). A queued skill replay's comes back from its worker; a
   * queued agent run is followed through its record and events instead (`RunResultNotHereError`).
   */
  result(): Promise<Result>;
}

/** The result of a run queued for a worker that does not send it back: follow its record and events. */
export class RunResultNotHereError extends ForgeError {
  constructor(runId: string) {
    super({ name: 'RunResultNotHereError', message: `Run ${runId} runs on a worker, which does not send its result back.`, hint: `Follow it with \`forge runs show ${runId}\` or GET /api/v1/runs/${runId}/events.` });
  }
}

/** A replay's error as it crosses from a worker (JSON). */
class WorkerRunError extends ForgeError {
  constructor(info: { name: string; message: string; hint?: string }) {
    super({ name: info.name, message: info.message, ...(info.hint === undefined ? {} : { hint: info.hint }) });
  }
}

export interface RunFrontDoorOptions extends RunServiceOptions {
  /** The runtime the runs use (its catalog, policy, stores, queue), once it is composed. */
  readonly runtime: () => ForgeRuntime;
}

/**
 * The front door of every run: the run service (every run's lifecycle) with the two ways in. `submit`
 * is what every entrance calls (the CLI, the API, Forge's MCP endpoint, schedules, approvals, the
 * library): it checks the request and refuses what cannot run, once and the same way whatever the
 * entrance, then runs it in this process (embedded) or queues it for a worker (scaled). `execute` is what
 * runs a request here: the in-process path, a worker's job, and the CLI, which always runs here. Both
 * go through the same checks of the request's kind (`prepareRun`), so a queued run is refused by the
 * same code, with the same words, on the server that queues it and on the worker that takes it.
 */
export class RunFrontDoor extends RunService {
  private readonly runtime: () => ForgeRuntime;

  constructor(options: RunFrontDoorOptions) {
    super(options);
    this.runtime = options.runtime;
  }

  /**
   * Takes a run request from anyone. Embedded, it runs here at once (`execute`); scaled, it is checked
   * here first (what is wrong is refused before anything exists), recorded `queued` (a resume keeps its
   * record), and queued for a worker with its conversation and its agent's or skill's version pinned.
   * A direct tool call runs where it is asked for either way: one dispatch, answered at once. Runs of
   * agents asked for this way wait in the store for their approvals (their owner answers them there).
   * A start past a quota of its account or key is refused (`QuotaExceededError`) before anything else,
   * by a read (`refuseStartPastQuota`); the atomic admission with the run's record follows as before.
   */
  async submit<Request extends RunRequestInput>(input: Request, principal: RunPrincipal, extras: RunExtras = {}): Promise<SubmittedRun<RunResultOf<Request['kind']>>> {
    const request = parseRunRequest(input);
    const runtime = this.runtime();
    // A start past its account's or key's quota is refused first, read-only: no model resolved, nothing written.
    if (request.kind !== 'resume') await refuseStartPastQuota(runtime.store, principal);
    const given = { ...(waitsForStoredApprovals(request) ? { approvals: storedApprovals(runtime) } : {}), ...extras };
    if (runtime.mode === 'embedded' || request.kind === 'tool_call') {
      const started = await this.startHere(request, principal, given);
      // Nobody need wait for it; its outcome is in its record and events.
      started.result.catch(() => undefined);
      return { runId: started.runId, queued: false, result: () => started.result as Promise<RunResultOf<Request['kind']>> };
    }
    return this.enqueueRequest(request, principal, given);
  }

  /**
   * Runs a request in this process and returns the running run (its id and log at once, its result
   * when it ends): checks it like `submit` does, and refuses before anything is recorded.
   */
  async execute<Request extends RunRequestInput>(input: Request, principal: RunPrincipal, extras: RunExtras = {}): Promise<StartedRun<RunResultOf<Request['kind']>>> {
    return (await this.startHere(parseRunRequest(input), principal, extras)) as StartedRun<RunResultOf<Request['kind']>>;
  }

  /**
   * Runs a queued run here, under its id (a worker's job): its request, prepared by the same checks as
   * `execute` for the account and key stored with the run (never the job's claim), must make the run
   * that was stored when it was queued (its kind, task, conversation, agent version), or nothing starts
   * (`RunJobMismatchError`) and the stored run stays as it is.
   */
  async executeQueued<Request extends RunRequestInput>(run: RunRecord, input: Request, principal: RunPrincipal, extras: RunExtras = {}): Promise<StartedRun<RunResultOf<Request['kind']>>> {
    const prepared = await prepareRun(this.runtime(), parseRunRequest(input), principal, extras);
    const disagreements = prepared.record === null ? ['it is a resume, not a queued run'] : recordDisagreements(run, prepared.record);
    if (disagreements.length > 0) throw new RunJobMismatchError(run.id, disagreements);
    return (await prepared.start({ queuedRunId: run.id })) as StartedRun<RunResultOf<Request['kind']>>;
  }

  private async startHere(request: RunRequest, principal: RunPrincipal, extras: RunExtras): Promise<StartedRun<unknown>> {
    const prepared = await prepareRun(this.runtime(), request, principal, extras);
    return prepared.start({});
  }

  private async enqueueRequest<Result>(request: RunRequest, principal: RunPrincipal, extras: RunExtras): Promise<SubmittedRun<Result>> {
    const runtime = this.runtime();
    const prepared = await prepareRun(runtime, request, principal, extras);
    const pinned = pinnedRequest(request, prepared);
    const userId = principal.userId;
    if (prepared.record === null) {
      // A resume: one job per run at a time (asking again while one waits adds nothing).
      const runId = prepared.resumes!;
      await runtime.queue.enqueue(RUN_JOB, { run_id: runId, request: { ...pinned, kind: 'resume', run_id: runId }, user_id: userId } satisfies RunJobPayload, { id: `resume-${runId}`, retry: RUN_JOB_RETRY });
      return { runId, queued: true, result: () => Promise.reject(new RunResultNotHereError(runId)) };
    }
    const run = await this.enqueue(prepared.record);
    const payload: RunJobPayload = { run_id: run.id, request: pinned, user_id: userId };
    let job;
    try {
      // A replay that wrote and then failed would write again: it is attempted once.
      job = await runtime.queue.enqueue(RUN_JOB, payload, { id: run.id, ...(request.kind === 'skill_replay' ? {} : { retry: RUN_JOB_RETRY }) });
    } catch (error) {
      // A run whose job was never queued would wait for ever: it fails now, saying why.
      await this.failQueued(run.id, error);
      throw error;
    }
    if (request.kind !== 'skill_replay') return { runId: run.id, queued: true, result: () => Promise.reject(new RunResultNotHereError(run.id)) };
    const signal = extras.signal;
    const onAbort = () => {
      const reason = 'the caller went away';
      void runtime.queue.cancel(job.id, reason).then(() => this.cancelQueued(run.id, reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const result = job.finished().then((outcome) => {
      signal?.removeEventListener('abort', onAbort);
      if (outcome.state === 'completed') {
        const value = outcome.result as RunJobValue;
        if (value.result === undefined) throw new WorkerRunError({ name: 'RunInterruptedError', message: `Run ${run.id} is ${value.status}: its worker stopped before it answered.`, hint: `See it with \`forge runs show ${run.id}\`.` });
        return value.result as Result;
      }
      if (outcome.state === 'failed') throw new WorkerRunError(outcome.error);
      throw new WorkerRunError({ name: 'RunCancelledError', message: `The run was cancelled: ${outcome.reason}` });
    });
    result.catch(() => undefined);
    return { runId: run.id, queued: true, result: () => result };
  }
}

/** Runs of agents asked for through the front door wait in the store for their approvals, as a server's do. */
function waitsForStoredApprovals(request: RunRequest): boolean {
  return request.kind === 'agent_task' || request.kind === 'converge_task' || request.kind === 'agent_definition';
}

/** The request as a worker runs it: its conversation, and its agent's or skill's version, as they were checked here. */
function pinnedRequest(request: RunRequest, prepared: PreparedRun<unknown>): RunRequest {
  switch (request.kind) {
    case 'agent_task':
    case 'converge_task':
      return { ...request, ...(prepared.conversationId === undefined ? {} : { conversation_id: prepared.conversationId }) };
    case 'agent_definition':
      return { ...request, ...(prepared.conversationId === undefined ? {} : { conversation_id: prepared.conversationId }), ...(prepared.pinned === undefined ? {} : { agent: prepared.pinned }) };
    case 'skill_replay':
      return { ...request, ...(prepared.pinned === undefined ? {} : { skill: prepared.pinned }) };
    case 'tool_call':
    case 'resume':
      return request;
  }
}

/** Every check of a request's kind, then what starts it: the one place a run is refused. */
function prepareRun(runtime: ForgeRuntime, request: RunRequest, principal: RunPrincipal, extras: RunExtras): Promise<PreparedRun<unknown>> {
  const userId = principal.userId;
  const apiKeyId = principal.apiKeyId ?? null;
  const common = {
    ...(extras.signal === undefined ? {} : { signal: extras.signal }),
    ...(extras.maxRetries === undefined ? {} : { maxRetries: extras.maxRetries }),
  };
  switch (request.kind) {
    case 'agent_task':
    case 'converge_task':
      return prepareTaskRun(runtime, {
        ...common,
        task: request.task,
        userId,
        apiKeyId,
        ...(request.kind === 'converge_task' ? { converge: true } : {}),
        ...modelOf(request.model, extras),
        ...(request.tools === undefined ? {} : { tools: request.tools }),
        ...(request.max_iterations === undefined ? {} : { maxIterations: request.max_iterations }),
        ...(request.conversation_id === undefined ? {} : { conversationId: request.conversation_id }),
        ...(request.policy_rules === undefined ? {} : { policyRules: request.policy_rules }),
        ...(request.system === undefined ? {} : { system: request.system }),
        ...(request.toolbox === undefined ? {} : { toolbox: request.toolbox }),
        ...(extras.approvals === undefined ? {} : { approvals: extras.approvals }),
        ...(extras.preludeEvents === undefined ? {} : { preludeEvents: extras.preludeEvents }),
      });
    case 'agent_definition':
      return prepareAgentRun(runtime, {
        ...common,
        agent: request.agent,
        task: request.task,
        userId,
        apiKeyId,
        ...modelOf(request.model, extras),
        ...(request.params === undefined ? {} : { params: request.params }),
        ...(request.context === undefined ? {} : { context: request.context }),
        ...(request.max_iterations === undefined ? {} : { maxIterations: request.max_iterations }),
        ...(request.toolbox === undefined ? {} : { toolbox: request.toolbox }),
        ...(request.conversation_id === undefined ? {} : { conversationId: request.conversation_id }),
        ...(request.policy_rules === undefined ? {} : { policyRules: request.policy_rules }),
        ...(extras.approvals === undefined ? {} : { approvals: extras.approvals }),
        ...(extras.preludeEvents === undefined ? {} : { preludeEvents: extras.preludeEvents }),
      });
    case 'skill_replay':
      return prepareSkillReplay(runtime, {
        ...(extras.signal === undefined ? {} : { signal: extras.signal }),
        skill: extras.skillDocument ?? request.skill,
        inputs: request.inputs,
        userId,
        apiKeyId,
        ...modelOf(request.model, extras),
        ...(extras.rescueModel === undefined ? {} : { rescueModel: extras.rescueModel }),
        ...(request.mode === undefined ? {} : { mode: request.mode }),
        ...(request.dry_run === true ? { dryRun: true } : {}),
        ...(request.summarize === true ? { summarize: true } : {}),
        ...(request.policy_rules === undefined ? {} : { policyRules: request.policy_rules }),
        ...(request.request === undefined ? {} : { request: request.request }),
        ...(request.extract_from === undefined ? {} : { extractFrom: { task: request.extract_from.task, ...(request.extract_from.template_inputs === undefined ? {} : { templateInputs: request.extract_from.template_inputs }) } }),
        ...(request.match_reason === undefined ? {} : { match: { reason: request.match_reason } }),
      });
    case 'tool_call':
      return prepareToolCall(runtime, { name: request.tool, input: request.input, userId, apiKeyId, ...(extras.signal === undefined ? {} : { signal: extras.signal }) });
    case 'resume':
      return prepareResume(runtime, request.run_id, {
        ...common,
        ...(extras.approvals === undefined ? {} : { approvals: extras.approvals }),
        ...(extras.model === undefined ? {} : { model: extras.model }),
      });
  }
}

/** The model a run uses: one built in code, else the request's slug. */
function modelOf(slug: string | undefined, extras: RunExtras): { model?: string | ResolvedModel } {
  const model = extras.model ?? slug;
  return model === undefined ? {} : { model };
}
