import { finishRun, type RunSummary } from '../engine/index.js';
import type { ErrorInfo } from '../core/index.js';
import { CallGuards, dispatchToolCall, type DispatchOutcome } from '../tools/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { runToolContext } from './run-tool-context.js';

export interface CallToolOptions {
  readonly name: string;
  readonly input: unknown;
  readonly signal?: AbortSignal;
  /** The account the call's run belongs to; none for the CLI's. */
  readonly userId?: string | null;
}

/** A direct tool call: the dispatch outcome, and the one-step run that recorded it. */
export interface ToolCallResult extends RunSummary {
  readonly log_file: string;
  readonly outcome: DispatchOutcome;
}

/**
 * Calls one tool without a model, as a run of its own (kind `tool-call`: a `runs` row, a run log, stored
 * events), through the same dispatch as agent runs: validation, policy, the SSRF guard, the output cap
 * and the untrusted boundary all apply; the name resolves among the catalog's tools as they are when the
 * call starts. `forge tools call` and Forge's MCP server call tools this way.
 */
export async function callTool(runtime: ForgeRuntime, options: CallToolOptions): Promise<ToolCallResult> {
  let outcome: DispatchOutcome | undefined;
  const handle = runtime.runs.start({
    kind: 'tool-call',
    task: `tool ${options.name}`,
    model: 'none',
    userId: options.userId ?? null,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    execute: async ({ runId, userId, emitter, meter, signal, logFile }) => {
      const started = performance.now();
      emitter.emit({ type: 'run-start', task: `tool ${options.name}`, model: 'none', max_iterations: 1, conversation_id: null, tools: [options.name] });
      outcome = await dispatchToolCall(
        { name: options.name, input: options.input, callId: 'direct', iteration: null },
        {
          tools: runtime.registry.snapshot(undefined, await runtime.tools.accountTools(userId)),
          policy: runtime.policy,
          approvals: runtime.approvals,
          emitter,
          context: { ...runToolContext(runtime, { userId }), runId, signal, utilityModel: undefined },
          guards: new CallGuards(runtime.config.callGuards),
        },
      );
      return finishRun(emitter, meter, {
        status: outcome.ok ? 'completed' : signal.aborted ? 'cancelled' : 'failed',
        haltReason: outcome.ok ? 'final_answer' : signal.aborted ? 'cancelled' : 'error',
        answer: outcome.ok ? outcome.output : null,
        error: outcome.ok ? null : runError(outcome.tool, logFile, outcome.error),
        startedAt: started,
      });
    },
  });
  const summary = await handle.result;
  return { ...summary, log_file: handle.logFile, outcome: outcome! };
}

/** The whole error is in the run's `tool-error` event; the run's own error says what failed, short. */
const runErrorLimit = 500;

function runError(tool: string, logFile: string, error: ErrorInfo): ErrorInfo {
  if (error.message.length <= runErrorLimit) return error;
  return {
    ...error,
    message: `${error.message.slice(0, runErrorLimit)}… [${error.message.length - runErrorLimit} more characters in this run's tool-error event]`,
    hint: error.hint ?? `See the whole error of ${tool} with \`forge replay ${logFile} --no-tui\`.`,
  };
}
