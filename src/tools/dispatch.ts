import {
  ApprovalDeniedError,
  ForgeError,
  PolicyBlockedError,
  RunCancelledError,
  ToolExecutionError,
  ToolInputError,
  callSideEffect,
  describeError,
  type AnyTool,
  type ApprovalGate,
  type ErrorInfo,
  type Policy,
  type ToolContext,
} from '../core/index.js';
import type { RunEmitter } from '../events/index.js';
import type { ToolRegistry } from './registry.js';
import { DEFAULT_OUTPUT_LIMIT, capToolOutput } from './result-cap.js';
import { wrapUntrusted } from './untrusted-content.js';

export interface DispatchRequest {
  /** The name as the caller wrote it (aliases are resolved here). */
  readonly name: string;
  readonly input: unknown;
  readonly callId: string;
  /** The loop iteration that asked for the call; null for direct calls (CLI, replay). */
  readonly iteration: number | null;
}

export interface DispatchEnvironment {
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
  readonly emitter: RunEmitter;
  readonly context: Omit<ToolContext, 'callId'>;
  readonly outputLimit?: number;
}

/** What happened to one tool call. `output` is exactly what a model is shown. */
export type DispatchOutcome =
  | {
      readonly ok: true;
      readonly callId: string;
      /** The registry name the call resolved to. */
      readonly tool: string;
      readonly input: unknown;
      readonly value: unknown;
      readonly output: string;
      readonly truncated: boolean;
      readonly untrusted: boolean;
      readonly durationMs: number;
    }
  | {
      readonly ok: false;
      readonly callId: string;
      readonly tool: string;
      readonly input: unknown;
      readonly error: ErrorInfo;
      readonly output: string;
      readonly durationMs: number;
    };

function serialize(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

function errorForModel(error: ErrorInfo): string {
  return `Error (${error.name}): ${error.message}${error.hint === undefined ? '' : `\nHint: ${error.hint}`}`;
}

function zodIssues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string[] {
  return error.issues.map((issue) => `${issue.path.length === 0 ? '(input)' : issue.path.map(String).join('.')}: ${issue.message}`);
}

async function authorize(tool: AnyTool, input: unknown, request: DispatchRequest, environment: DispatchEnvironment): Promise<void> {
  const policyRequest = {
    runId: environment.emitter.runId,
    callId: request.callId,
    tool: tool.name,
    risk: tool.risk,
    sideEffect: callSideEffect(tool, input),
    input,
  };
  const verdict = await environment.policy.decide(policyRequest);
  environment.emitter.emit({ type: 'policy-decision', call_id: request.callId, tool: tool.name, decision: verdict.decision, reason: verdict.reason });
  if (verdict.decision === 'block') throw new PolicyBlockedError(tool.name, verdict.reason);
  if (verdict.decision === 'require_approval') {
    const answer = await environment.approvals.request({ ...policyRequest, reason: verdict.reason });
    if (!answer.approved) throw new ApprovalDeniedError(tool.name, answer.reason);
  }
}

/**
 * The one choke point every tool call passes: resolves the name, validates the input against the
 * tool's schema, asks the policy (and approvals), times the call, turns the result into text, wraps
 * external content as untrusted and caps what the model sees. Never throws: failures come back as
 * an outcome with `ok: false` and a `tool-error` event, so a model can read and correct them.
 */
export async function dispatchToolCall(request: DispatchRequest, environment: DispatchEnvironment): Promise<DispatchOutcome> {
  const { emitter } = environment;
  const started = performance.now();
  emitter.emit({ type: 'tool-call-start', call_id: request.callId, tool: request.name, input: request.input, iteration: request.iteration });
  let toolName = request.name;
  let input = request.input;
  try {
    if (environment.context.signal.aborted) throw new RunCancelledError('the run was cancelled before the tool ran');
    const tool = environment.registry.resolve(request.name);
    toolName = tool.name;
    const parsed = tool.inputSchema.safeParse(request.input ?? {});
    if (!parsed.success) throw new ToolInputError(tool.name, zodIssues(parsed.error));
    input = parsed.data;
    await authorize(tool, input, request, environment);
    let value: unknown;
    try {
      value = await tool.execute(input, { ...environment.context, callId: request.callId });
    } catch (error) {
      throw ForgeError.isInstance(error) ? error : new ToolExecutionError(tool.name, error instanceof Error ? error.message : String(error), error);
    }
    const untrusted = tool.external === true;
    const capped = capToolOutput(serialize(value), environment.outputLimit ?? DEFAULT_OUTPUT_LIMIT);
    const output = untrusted ? wrapUntrusted(tool.name, capped.text) : capped.text;
    const durationMs = performance.now() - started;
    emitter.emit({ type: 'tool-result', call_id: request.callId, tool: tool.name, output, truncated: capped.truncated, untrusted, duration_ms: durationMs });
    return { ok: true, callId: request.callId, tool: tool.name, input, value, output, truncated: capped.truncated, untrusted, durationMs };
  } catch (error) {
    const info = describeError(error);
    const durationMs = performance.now() - started;
    emitter.emit({ type: 'tool-error', call_id: request.callId, tool: toolName, error: info, duration_ms: durationMs });
    return { ok: false, callId: request.callId, tool: toolName, input, error: info, output: errorForModel(info), durationMs };
  }
}
