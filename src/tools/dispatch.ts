import { createHash } from 'node:crypto';
import {
  ApprovalDeniedError,
  ForgeError,
  PolicyBlockedError,
  RunCancelledError,
  ToolExecutionError,
  ToolInputError,
  ToolRateLimitError,
  ToolTimeoutError,
  callSideEffect,
  describeError,
  type AnyTool,
  type ApprovalGate,
  type ErrorInfo,
  type ForgeEvent,
  type Policy,
  type ToolContext,
} from '../core/index.js';
import type { RunEmitter } from '../events/index.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { CallGuards } from './call-guards/index.js';
import { DEFAULT_OUTPUT_LIMIT, capToolOutput } from './result-cap.js';
import type { ToolSet } from './tool-set.js';
import { wrapUntrusted } from '../security/untrusted-content.js';

export interface DispatchRequest {
  /** The name as the caller wrote it (aliases are resolved here). */
  readonly name: string;
  readonly input: unknown;
  readonly callId: string;
  /** The loop iteration that asked for the call; null for direct calls (CLI, replay). */
  readonly iteration: number | null;
}

export interface DispatchEnvironment {
  /**
   * The run's own tools, fixed when it started: a call resolves among these alone, so a name outside
   * them is a ToolNotFoundError listing only them, whatever else the catalog holds.
   */
  readonly tools: ToolSet;
  readonly policy: Policy;
  /** Scopes narrower than the installation whose policies apply (`agent:<slug>`); the run's own always does. */
  readonly policyScopes?: readonly string[];
  readonly approvals: ApprovalGate;
  readonly emitter: RunEmitter;
  readonly context: Omit<ToolContext, 'callId'>;
  readonly outputLimit?: number;
  /**
   * Awaited after the policy allowed a side-effecting call and before it runs: the run service commits
   * the call's `tool-call-start` here, so a resumed run knows the call may have had its effect.
   */
  readonly beforeSideEffect?: () => Promise<void>;
  /**
   * The run's own guards (result cache, failure blocking, rate limits, timeouts), applied after the
   * policy allowed a call; one instance per run, never shared. None apply when absent.
   */
  readonly guards?: CallGuards;
}

/** What happened to one tool call. `output` is exactly what a model is shown. */
export type DispatchOutcome =
  | {
      readonly ok: true;
      readonly callId: string;
      /** The name of the tool the call resolved to. */
      readonly tool: string;
      readonly input: unknown;
      readonly value: unknown;
      readonly output: string;
      readonly truncated: boolean;
      readonly untrusted: boolean;
      readonly durationMs: number;
      /** Answered from the run's result cache: the tool did not run. */
      readonly cached?: true;
    }
  | {
      readonly ok: false;
      readonly callId: string;
      readonly tool: string;
      readonly input: unknown;
      /** The error as reported, its message capped at the output limit. */
      readonly error: ErrorInfo;
      readonly output: string;
      readonly truncated: boolean;
      /** Whether `output` wraps the message as untrusted content (an external tool's own failure). */
      readonly untrusted: boolean;
      readonly durationMs: number;
      /** The call did not run: it waits for an approval (`approval-request` was emitted); its run pauses. */
      readonly awaitingApproval?: true;
    };

function serialize(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/** An error name shown outside the boundary: a class name such as `NetworkBlockedError`, or plain `Error`. */
const plainErrorName = /^[A-Z][A-Za-z]{0,63}$/;

/**
 * A failure as the model reads it. The message is capped like a result. When it is an external tool's
 * own failure (its text, or validation against the schema it brought) everything but the error's class
 * name goes inside the untrusted-content boundary, exactly like its results: the message and the hint
 * too, since a hint Forge wrote may still quote what the outside said (the host name of a redirect the
 * guard refused, say), and a name that is not a plain class name is shown as `Error`.
 */
function errorForModel(error: ErrorInfo, source: string | undefined): string {
  const hint = error.hint === undefined ? '' : `\nHint: ${error.hint}`;
  if (source === undefined) return `Error (${error.name}): ${error.message}${hint}`;
  const name = plainErrorName.test(error.name) ? error.name : 'Error';
  return `Error (${name}):\n${wrapUntrusted(source, `${name === error.name ? '' : `${error.name}: `}${error.message}${hint}`)}`;
}

/**
 * Forge's own refusals, cancellation and timeouts: their text is Forge's even when the tool is external.
 * (A failure block is not among them: it repeats the tool's last error.)
 */
function isGateRefusal(error: unknown): boolean {
  return error instanceof PolicyBlockedError || error instanceof ApprovalDeniedError || error instanceof RunCancelledError || error instanceof ToolRateLimitError || error instanceof ToolTimeoutError;
}

function zodIssues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string[] {
  return error.issues.map((issue) => `${issue.path.length === 0 ? '(input)' : issue.path.map(String).join('.')}: ${issue.message}`);
}

/** Raised inside dispatch when the approval gate left the question open; never leaves dispatch. */
class ApprovalPending extends Error {}

/** sha256 of a call's input in canonical JSON (keys sorted): what an approval is bound to. */
export function inputDigest(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input ?? {})).digest('hex');
}

async function authorize(tool: AnyTool, input: unknown, request: DispatchRequest, environment: DispatchEnvironment): Promise<void> {
  const policyRequest = {
    runId: environment.emitter.runId,
    callId: request.callId,
    tool: tool.name,
    risk: tool.risk,
    sideEffect: callSideEffect(tool, input),
    input,
    ...(environment.policyScopes === undefined ? {} : { scopes: environment.policyScopes }),
  };
  // The run's own workspace judges relative paths; it is not part of what an approval is asked about.
  const verdict = await environment.policy.decide({ ...policyRequest, ...(environment.context.workspace === undefined ? {} : { workspace: environment.context.workspace }) });
  environment.emitter.emit({ type: 'policy-decision', call_id: request.callId, tool: tool.name, decision: verdict.decision, reason: verdict.reason, rule: verdict.rule ?? 'policy' });
  if (verdict.decision === 'block') throw new PolicyBlockedError(tool.name, verdict.reason);
  if (verdict.decision !== 'require_approval') return;
  const answer = await environment.approvals.request({ ...policyRequest, reason: verdict.reason, ...(verdict.approvalExpiresSeconds === undefined ? {} : { expiresSeconds: verdict.approvalExpiresSeconds }) });
  if (answer.pending === true) {
    environment.emitter.emit({
      type: 'approval-request',
      call_id: request.callId,
      tool: tool.name,
      input_digest: inputDigest(input),
      reason: verdict.reason,
      expires_at: answer.expiresAt,
    });
    throw new ApprovalPending();
  }
  if (answer.answered === true || answer.grant !== undefined || answer.refused !== undefined) {
    environment.emitter.emit({
      type: 'approval-answer',
      call_id: request.callId,
      decision: answer.refused === 'expired' ? 'expired' : answer.approved ? 'approved' : 'denied',
      reason: answer.reason,
      ...(answer.grant === undefined ? {} : { grant_id: answer.grant.id, grant_scope: answer.grant.scope }),
    });
  }
  if (!answer.approved) throw new ApprovalDeniedError(tool.name, answer.reason);
}

/**
 * The one choke point every tool call passes: resolves the name among the run's tools (never the
 * catalog), validates the input against the tool's schema, asks the policy (and approvals), times the
 * call, turns the result into text, wraps external content as untrusted and caps what the model sees.
 * Failures are treated like results: the message is capped at the same limit, and an external tool's
 * failure is wrapped as untrusted too (its text came from the outside world as surely as its results
 * do), its hint and its error name included; only Forge's own refusals (policy, approval, cancellation)
 * are not. Never throws: failures come
 * back as an outcome with `ok: false` and a `tool-error` event, so a model can read and correct them.
 */
export async function dispatchToolCall(request: DispatchRequest, environment: DispatchEnvironment): Promise<DispatchOutcome> {
  const { emitter } = environment;
  const started = performance.now();
  emitter.emit({ type: 'tool-call-start', call_id: request.callId, tool: request.name, input: request.input, iteration: request.iteration });
  const limit = environment.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
  let resolved: AnyTool | undefined;
  let input = request.input;
  try {
    if (environment.context.signal.aborted) throw new RunCancelledError('the run was cancelled before the tool ran');
    const tool = environment.tools.resolve(request.name);
    resolved = tool;
    const parsed = tool.inputSchema.safeParse(request.input ?? {});
    if (!parsed.success) throw new ToolInputError(tool.name, zodIssues(parsed.error));
    input = parsed.data;
    await authorize(tool, input, request, environment);
    const admission = environment.guards?.admit(tool, input);
    if (admission?.cached !== undefined) {
      const { output, truncated, untrusted } = admission.cached;
      const durationMs = performance.now() - started;
      emitter.emit({ type: 'tool-result', call_id: request.callId, tool: tool.name, output, truncated, untrusted, duration_ms: durationMs, cached: true });
      return { ok: true, callId: request.callId, tool: tool.name, input, value: output, output, truncated, untrusted, durationMs, cached: true };
    }
    const guarded = admission?.call;
    if (environment.beforeSideEffect !== undefined && callSideEffect(tool, input) === 'write') await environment.beforeSideEffect();
    let value: unknown;
    try {
      const log = (lines: readonly string[]) => {
        if (lines.length > 0) emitter.emit({ type: 'tool-log', call_id: request.callId, tool: tool.name, lines: [...lines] });
      };
      const context = { ...environment.context, callId: request.callId, log };
      value = await (guarded === undefined ? tool.execute(input, context) : guarded.run(context, (callContext) => tool.execute(input, callContext)));
    } catch (error) {
      const failure = ForgeError.isInstance(error) ? error : new ToolExecutionError(tool.name, error instanceof Error ? error.message : String(error), error);
      guarded?.failed(failure.message);
      throw failure;
    }
    const untrusted = tool.external === true;
    const capped = capToolOutput(serialize(value), limit);
    const output = untrusted ? wrapUntrusted(tool.name, capped.text) : capped.text;
    guarded?.succeeded({ output, truncated: capped.truncated, untrusted });
    const durationMs = performance.now() - started;
    emitter.emit({ type: 'tool-result', call_id: request.callId, tool: tool.name, output, truncated: capped.truncated, untrusted, duration_ms: durationMs });
    return { ok: true, callId: request.callId, tool: tool.name, input, value, output, truncated: capped.truncated, untrusted, durationMs };
  } catch (error) {
    if (error instanceof ApprovalPending) {
      const info = { name: 'ApprovalPending', message: `${resolved?.name ?? request.name} waits for an approval.` };
      return { ok: false, callId: request.callId, tool: resolved?.name ?? request.name, input, error: info, output: info.message, truncated: false, untrusted: false, durationMs: performance.now() - started, awaitingApproval: true };
    }
    const described = describeError(error);
    const capped = capToolOutput(described.message, limit);
    const info = { ...described, message: capped.text };
    const toolName = resolved?.name ?? request.name;
    const untrusted = resolved?.external === true && !isGateRefusal(error);
    const durationMs = performance.now() - started;
    emitter.emit({ type: 'tool-error', call_id: request.callId, tool: toolName, error: info, truncated: capped.truncated, untrusted, duration_ms: durationMs });
    const output = errorForModel(info, untrusted ? toolName : undefined);
    return { ok: false, callId: request.callId, tool: toolName, input, error: info, output, truncated: capped.truncated, untrusted, durationMs };
  }
}

/**
 * The outcome a call already had, rebuilt from its recorded events exactly as the model was shown it
 * (a resumed run answers a completed call from here instead of running it again); undefined when the
 * events hold no result for it.
 */
export function recordedOutcome(events: readonly ForgeEvent[], callId: string): DispatchOutcome | undefined {
  const start = events.find((event) => event.type === 'tool-call-start' && event.call_id === callId);
  const input = start?.type === 'tool-call-start' ? start.input : undefined;
  for (const event of events) {
    if (event.type === 'tool-result' && event.call_id === callId) {
      return { ok: true, callId, tool: event.tool, input, value: event.output, output: event.output, truncated: event.truncated, untrusted: event.untrusted, durationMs: event.duration_ms };
    }
    if (event.type === 'tool-error' && event.call_id === callId) {
      const untrusted = event.untrusted === true;
      return { ok: false, callId, tool: event.tool, input, error: event.error, output: errorForModel(event.error, untrusted ? event.tool : undefined), truncated: event.truncated === true, untrusted, durationMs: event.duration_ms };
    }
  }
  return undefined;
}
