import { z } from 'zod';

/**
 * The run log's vocabulary. Every transition of a run is one of these events; the run log (JSONL),
 * the store, the terminal UI, the replay viewer, `forge stats`, the web UI and the API all read these
 * and nothing else. The schemas are the single definition: types are inferred from them and every
 * reader validates with them. Names are noun-verb; a lifecycle closes with `end`.
 */

/**
 * Why a run stopped. `refused`: a skill replay stopped before a write it could not prove (a safe
 * failure: nothing was sent). `interrupted`: the process running it ended before it finished (marked
 * when Forge next starts), or a resumed run found a side-effecting call that started and never
 * recorded a result. `awaiting_approval`: the run is paused (`waiting`) until a call's approval is
 * answered. `approval_expired`: nobody answered within the approval timeout.
 */
export const haltReasonSchema = z.enum(['final_answer', 'converged', 'cap', 'cancelled', 'error', 'refused', 'interrupted', 'awaiting_approval', 'approval_expired', 'quota_exceeded']);
export type HaltReason = z.infer<typeof haltReasonSchema>;

/**
 * Where a run stands: `queued` (waiting for a worker, in the scaled mode; nothing ran yet), `running` and
 * `waiting` (for an answer: an approval, an input) until it ends as one of the others.
 */
export const runStatusSchema = z.enum(['queued', 'running', 'waiting', 'completed', 'failed', 'cancelled', 'refused']);

/** What a run is: an agent run, a convergence-gated run, a skill replay, or one direct tool call. */
export const runKindSchema = z.enum(['agent', 'converge', 'skill', 'tool-call']);
export type RunKind = z.infer<typeof runKindSchema>;
export type RunStatus = z.infer<typeof runStatusSchema>;

export const policyDecisionKindSchema = z.enum(['allow', 'require_approval', 'block']);
export type PolicyDecisionKind = z.infer<typeof policyDecisionKindSchema>;

export const errorInfoSchema = z.object({ name: z.string(), message: z.string(), hint: z.string().optional() });
export type ErrorInfo = z.infer<typeof errorInfoSchema>;

export const tokenUsageSchema = z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() });

export const toolStatusSchema = z.enum(['draft', 'testing', 'failed', 'promoted']);
export const planStepStatusSchema = z.enum(['pending', 'in_progress', 'done', 'blocked']);
/**
 * How a replayed value was obtained: the caller's input, a deterministic rule over fresh results, a
 * validated rescue choice, text handed on, the recorded value as a last resort (`default`: never good
 * enough for a write), or a constant of the skill (`constant`: only pinned ones may be written).
 */
export const resolutionStrategySchema = z.enum(['user_input', 'heuristic', 'llm_rescue', 'text_passthrough', 'default', 'constant']);

const envelope = {
  ts: z.string(),
  run_id: z.string().min(1),
  seq: z.number().int().nonnegative(),
};

function event<Type extends string, Shape extends z.ZodRawShape>(type: Type, shape: Shape) {
  return z.object({ ...envelope, type: z.literal(type), ...shape });
}

/**
 * The run log format this build writes. The run's emitter stamps it on every `run-start` as
 * `log_format`, so no producer spells it. Format 1 is every log written before the field existed (its
 * `run-start` has no `log_format`); format 2 adds the field. A reader accepts every format up to this
 * one and refuses a newer one by name rather than misreading it. Raise it when an event changes in a
 * way an older reader would get wrong.
 */
export const RUN_LOG_FORMAT_VERSION = 2;

export const eventSchemas = {
  'run-start': event('run-start', {
    task: z.string(),
    model: z.string(),
    max_iterations: z.number().int().positive(),
    conversation_id: z.string().nullable(),
    tools: z.array(z.string()),
    /** The run log format (see `RUN_LOG_FORMAT_VERSION`); absent in format 1. Stamped by the emitter. */
    log_format: z.number().int().positive().optional(),
  }),
  /** A run goes on from its last checkpoint (`forge run --resume`, an answered approval), in a new process or the same one. */
  'run-resume': event('run-resume', {
    /** Model turns completed before. */
    turn: z.number().int().nonnegative(),
    /** The calls of the last turn it owed results for. */
    pending: z.array(z.string()),
  }),
  /** The run pauses, status `waiting`, until the calls it names are answered; its checkpoint is committed. */
  'run-pause': event('run-pause', { reason: z.literal('approval'), waiting_on: z.array(z.string()) }),
  /** A call the policy sent for approval: it does not run until approved, bound to this input digest. */
  'approval-request': event('approval-request', {
    call_id: z.string(),
    tool: z.string(),
    /** sha256 of the call's input in canonical JSON. */
    input_digest: z.string(),
    reason: z.string(),
    expires_at: z.string().nullable(),
  }),
  /** A person (or a timeout) answered an approval request. */
  'approval-answer': event('approval-answer', {
    call_id: z.string(),
    decision: z.enum(['approved', 'denied', 'expired']),
    reason: z.string().nullable(),
    /** The "approve always" grant this answer made, or that approved the call without asking. */
    grant_id: z.string().optional(),
    grant_scope: z.string().optional(),
  }),
  'model-call-start': event('model-call-start', { model: z.string(), iteration: z.number().int() }),
  'model-call': event('model-call', {
    model: z.string(),
    iteration: z.number().int(),
    purpose: z.string(),
    tokens: tokenUsageSchema,
    cost_usd: z.number().nullable(),
    latency_ms: z.number().nonnegative(),
    input_hash: z.string(),
    finish_reason: z.string(),
    tool_calls: z.number().int().nonnegative(),
  }),
  'model-error': event('model-error', {
    model: z.string(),
    iteration: z.number().int(),
    error: errorInfoSchema,
    status_code: z.number().int().nullable(),
    latency_ms: z.number().nonnegative(),
  }),
  'assistant-text': event('assistant-text', { iteration: z.number().int(), text: z.string() }),
  'tool-call-start': event('tool-call-start', {
    call_id: z.string(),
    tool: z.string(),
    input: z.unknown(),
    iteration: z.number().int().nullable(),
  }),
  'policy-decision': event('policy-decision', {
    call_id: z.string(),
    tool: z.string(),
    decision: policyDecisionKindSchema,
    reason: z.string(),
    /** The rule that decided (`installation v3 rule 2 (shell: block when …)`, `built-in default for high risk`). */
    rule: z.string().optional(),
  }),
  'tool-result': event('tool-result', {
    call_id: z.string(),
    tool: z.string(),
    output: z.string(),
    truncated: z.boolean(),
    untrusted: z.boolean(),
    duration_ms: z.number().nonnegative(),
    /** The result was served from the run's result cache: an identical read-only call earlier in the run; the tool did not run again. Absent otherwise. */
    cached: z.literal(true).optional(),
  }),
  /**
   * What a sandboxed tool wrote with `forge.log` during one call, in order (capped by the sandbox, a
   * final line counting any dropped), emitted before the call's `tool-result` or `tool-error`. Only a
   * call that logged something has one.
   */
  'tool-log': event('tool-log', { call_id: z.string(), tool: z.string(), lines: z.array(z.string()).min(1) }),
  'tool-error': event('tool-error', {
    call_id: z.string(),
    tool: z.string(),
    /** The message is capped at the output limit, like a result. */
    error: errorInfoSchema,
    /** Whether the message was cut at the output limit; absent in older logs. */
    truncated: z.boolean().optional(),
    /** Whether the model was shown the message as untrusted content (an external tool's own failure); absent in older logs. */
    untrusted: z.boolean().optional(),
    duration_ms: z.number().nonnegative(),
  }),
  /** Convergence mode: the plan as it stands after a turn. */
  'plan-update': event('plan-update', {
    steps: z.array(z.object({ id: z.string(), title: z.string(), status: planStepStatusSchema })),
  }),
  /** Convergence mode: a synthesized tool changed state. */
  'toolbox-change': event('toolbox-change', {
    tool: z.string(),
    status: toolStatusSchema,
    revisions: z.number().int().nonnegative(),
    uses: z.number().int().nonnegative(),
  }),
  /** A synthesized tool's test failed in the sandbox; `output` is the real sandbox output. */
  'verification-failed': event('verification-failed', {
    tool: z.string(),
    revision: z.number().int().nonnegative(),
    output: z.string(),
  }),
  /**
   * A synthesis ended: the tool was promoted or marked failed. Its cost is every author and tester call
   * it made. `flagged` marks a synthesis that used up its revisions: a sign the prompts regressed.
   */
  'synthesis-end': event('synthesis-end', {
    tool: z.string(),
    status: z.enum(['promoted', 'failed']),
    revisions: z.number().int().nonnegative(),
    llm_calls: z.number().int().nonnegative(),
    tokens: tokenUsageSchema,
    cost_usd: z.number().nullable(),
    /** What its priced calls add up to, and how many had no price (absent in logs written before Forge recorded them). */
    cost_usd_known: z.number().nonnegative().optional(),
    unpriced_calls: z.number().int().nonnegative().optional(),
    flagged: z.boolean(),
    failures: z.array(z.string()),
  }),
  /** Convergence mode: the halt rule's inputs after a turn. */
  'convergence-check': event('convergence-check', {
    turn: z.number().int().positive(),
    toolbox_stable: z.boolean(),
    plan_stable: z.boolean(),
    /** Whether the turn called a domain tool (a promoted or registry tool); absent in older logs. */
    tool_used: z.boolean().optional(),
    stable_streak: z.number().int().nonnegative(),
    threshold: z.number().int().positive(),
  }),
  /** A skill replay step with how each of its values was resolved. */
  'skill-step': event('skill-step', {
    skill: z.string(),
    step: z.number().int().nonnegative(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    /** Whether the call can write; absent in older logs. */
    side_effect: z.enum(['read', 'write']).optional(),
    /** False when the step was resolved but not run: a write in a dry run. Absent in older logs. */
    executed: z.boolean().optional(),
    resolutions: z.array(
      z.object({
        name: z.string(),
        strategy: resolutionStrategySchema,
        value: z.unknown(),
        /** Why the value is what it is, in words (`step 1 result at order_id`); absent in older logs. */
        because: z.string().optional(),
        /** Whether it is proven for this replay (a write sends only proven values); absent in older logs. */
        proven: z.boolean().optional(),
        candidates: z.number().int().nonnegative().optional(),
        /** Every candidate considered, with its heuristic score when one was computed. */
        scores: z.array(z.object({ value: z.unknown(), score: z.number().nullable() })).optional(),
        /** Cheaper strategies that were tried and refused, and why (e.g. a rescue answer outside the candidates). */
        rejections: z.array(z.object({ strategy: resolutionStrategySchema, reason: z.string(), answer: z.string().optional() })).optional(),
      }),
    ),
  }),
  /** `forge run --skills`: whether a stored skill replaces the full agent for this task, and why. */
  'skill-match': event('skill-match', {
    decision: z.enum(['replay', 'fallback']),
    skill: z.string().nullable(),
    reason: z.string(),
    inputs: z.record(z.string(), z.unknown()),
  }),
  /** A skill no longer matches its world (a tool's schema changed, a replay broke its output contract). */
  'skill-stale': event('skill-stale', { skill: z.string(), reason: z.string() }),
  'run-end': event('run-end', {
    status: runStatusSchema,
    halt_reason: haltReasonSchema,
    answer: z.string().nullable(),
    llm_calls: z.number().int().nonnegative(),
    tokens: tokenUsageSchema,
    /** Null when any model call had no known price. */
    cost_usd: z.number().nullable(),
    /** What the priced calls add up to, and how many calls had no price (absent in logs written before Forge recorded them). */
    cost_usd_known: z.number().nonnegative().optional(),
    unpriced_calls: z.number().int().nonnegative().optional(),
    error: errorInfoSchema.nullable(),
    duration_ms: z.number().nonnegative(),
    /** Things a reader must not miss (a cap halt, a synthesis that used up its revisions); absent when none. */
    warnings: z.array(z.string()).optional(),
  }),
} as const;

/** Validates any event of the run log. */
export const forgeEventSchema = z.discriminatedUnion('type', [
  eventSchemas['run-start'],
  eventSchemas['run-resume'],
  eventSchemas['run-pause'],
  eventSchemas['approval-request'],
  eventSchemas['approval-answer'],
  eventSchemas['model-call-start'],
  eventSchemas['model-call'],
  eventSchemas['model-error'],
  eventSchemas['assistant-text'],
  eventSchemas['tool-call-start'],
  eventSchemas['policy-decision'],
  eventSchemas['tool-result'],
  eventSchemas['tool-log'],
  eventSchemas['tool-error'],
  eventSchemas['plan-update'],
  eventSchemas['toolbox-change'],
  eventSchemas['verification-failed'],
  eventSchemas['synthesis-end'],
  eventSchemas['convergence-check'],
  eventSchemas['skill-step'],
  eventSchemas['skill-match'],
  eventSchemas['skill-stale'],
  eventSchemas['run-end'],
]);

export type ForgeEvent = z.infer<typeof forgeEventSchema>;
export type EventType = ForgeEvent['type'];
export type EventOf<K extends EventType> = Extract<ForgeEvent, { type: K }>;
/** An event without its envelope: what producers hand to a run's emitter. */
export type EventBody<K extends EventType> = Omit<EventOf<K>, 'ts' | 'run_id' | 'seq'>;
export type AnyEventBody = { [K in EventType]: EventBody<K> }[EventType];

/**
 * Events that exist only while a run is being watched: a fragment of the model's text as it streams.
 * They are not part of the run log's vocabulary: they carry no `seq`, are never written to the run log
 * or the store (a long answer would be stored twice, once in pieces), and a replay has none, because the
 * `assistant-text` that follows each streamed model call holds the whole text. A watcher that shows them
 * drops its fragments when that `assistant-text` (or the call's `model-call`/`model-error`) arrives.
 */
export const liveEventSchemas = {
  /** A piece of the text the model is generating in iteration `iteration`, in order. */
  'assistant-text-delta': z.object({ ts: z.string(), run_id: z.string().min(1), type: z.literal('assistant-text-delta'), iteration: z.number().int(), delta: z.string() }),
} as const;

export const liveEventSchema = z.discriminatedUnion('type', [liveEventSchemas['assistant-text-delta']]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
/** A live event without its envelope: what producers hand to a run's emitter. */
export type LiveEventBody = Omit<LiveEvent, 'ts' | 'run_id'>;

/** Carries events from producers (loops, replays) to consumers (run log, store, UI, API). */
export interface EventBus {
  publish(event: ForgeEvent): void;
  /** Every run's events. Returns the function that unsubscribes. */
  subscribe(listener: (event: ForgeEvent) => void): () => void;
  /** One run's events only, at a cost per event that does not grow with the number of runs. Returns the function that unsubscribes. */
  subscribeRun(runId: string, listener: (event: ForgeEvent) => void): () => void;
}

/**
 * A bus that also carries live events (see `liveEventSchemas`) to the listeners that ask for them; the
 * run log and the store never subscribe here. A bus without it simply drops them.
 */
export interface LiveEventBus {
  publishLive(event: LiveEvent): void;
  /** Every run's live events. Returns the function that unsubscribes. */
  subscribeLive(listener: (event: LiveEvent) => void): () => void;
}

export function isLiveEventBus(bus: EventBus): bus is EventBus & LiveEventBus {
  const candidate = bus as Partial<LiveEventBus>;
  return typeof candidate.publishLive === 'function' && typeof candidate.subscribeLive === 'function';
}
