import { finishRun, type RunSummary } from '../engine/index.js';
import type { ErrorInfo } from '../core/index.js';
import { CallGuards, dispatchToolCall, type DispatchOutcome } from '../tools/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import type { PreparedRun } from './prepared-run.js';
import { startedOrRefused } from './run-service.js';
import { runToolContext } from './run-tool-context.js';

export interface ToolCallOptions {
  readonly name: string;
  readonly input: unknown;
  readonly signal?: AbortSignal;
  /** The account the call's run belongs to; none for the CLI's. */
  readonly userId?: string | null;
  /** The service key that asked for the run, when one did: its quota counts the run. */
  readonly apiKeyId?: string | null;
}

/** A direct tool call: the dispatch outcome, and the one-step run that recorded it. */
export interface ToolCallResult extends RunSummary {
  readonly log_file: string;
  readonly outcome: DispatchOutcome;
}

/**
 * Makes a direct tool call ready to start: a run of its own (kind `tool-call`: a `runs` row, a run log,
 * stored events), through the same dispatch as agent runs: validation, policy, the SSRF guard, the
 * output cap and the untrusted boundary all apply, and the name resolves among the catalog's tools as
 * they are when the call starts (a name no tool has is the call's failure, recorded like any).
 */
export async function prepareToolCall(runtime: ForgeRuntime, options: ToolCallOptions): Promise<PreparedRun<ToolCallResult>> {
  const record = { kind: 'tool-call', task: `tool ${options.name}`, model: 'none', userId: options.userId ?? null, apiKeyId: options.apiKeyId ?? null } as const;
  return {
    record,
    start: async (start) => {
      let outcome: DispatchOutcome | undefined;
      const handle = runtime.runs.start({
        ...record,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(start.queuedRunId === undefined ? {} : { queuedRunId: start.queuedRunId }),
        execute: async ({ runId, userId, emitter, meter, signal, logFile }) => {
          const started = performance.now();
          emitter.emit({ type: 'run-start', task: `tool ${options.name}`, model: 'none', max_iterations: 1, conversation_id: null, tools: [options.name] });
          outcome = await dispatchToolCall(
            { name: options.name, input: options.input, callId: 'direct', iteration: null },
            {
              // The catalog as it is when the call starts.
              tools: runtime.registry.snapshot(),
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
      await startedOrRefused(handle);
      return { runId: handle.runId, logFile: handle.logFile, result: handle.result.then((summary) => ({ ...summary, log_file: handle.logFile, outcome: outcome! })) };
    },
  };
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
