import type { ToolContext } from '../core/index.js';
import { runWorkspace } from '../tools/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import type { ActiveRun } from './run-service.js';

/**
 * What the tools of one run may use besides a model, for the run's owner: the guarded fetch, the
 * run's own workspace (an account's folder, or an agent's inside it when its definition keeps one; the
 * operator's runs keep the installation's) and its account, by which shared resources such as the
 * browser's contexts are divided. Every run entrance takes its tool context from here, so no run of an
 * account works in another's folder or in the installation's.
 */
export function runToolContext(runtime: Pick<ForgeRuntime, 'fetch' | 'config'>, run: Pick<ActiveRun, 'userId'>, options: { readonly agentSlug?: string } = {}): Omit<ToolContext, 'callId' | 'runId' | 'signal' | 'utilityModel'> {
  const own = run.userId !== null || options.agentSlug !== undefined;
  return {
    fetch: runtime.fetch,
    ...(own ? { workspace: runWorkspace(runtime.config.workspace, { accountId: run.userId, ...(options.agentSlug === undefined ? {} : { agentSlug: options.agentSlug }) }) } : {}),
    ...(run.userId === null ? {} : { accountId: run.userId }),
  };
}
