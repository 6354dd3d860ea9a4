import type { AgentDefinition } from '../agents/index.js';
import type { ModelSettings } from '../engine/index.js';
import type { AgentPin } from '../core/index.js';
import { agentRunScopes } from '../policy/index.js';
import { agentServiceOf } from './agent-service-of.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';

/** What a run of an agent version carries into its loop, the same when it starts and when it resumes. */
export interface AgentLoopSettings {
  readonly pin: AgentPin;
  /** `agent:<slug>`, then the version's own `agent:<slug>.v<n>`. */
  readonly policyScopes: readonly string[];
  /** Checks the final answer against the version's outputs (one retry, then the run fails with the answer attached). */
  readonly checkAnswer?: (answer: string) => { readonly retryMessage: string; readonly error: Error } | undefined;
  /** The version's temperature and max tokens. */
  readonly modelSettings?: ModelSettings;
  /** The version keeps a workspace of its own (`workspace: agent`): its runs work in the agent's folder inside the account's. */
  readonly ownWorkspace?: boolean;
}

/** The loop settings of one agent version. */
export async function agentLoopSettings(pin: AgentPin, definition: AgentDefinition): Promise<AgentLoopSettings> {
  const { agentAnswerCheck } = await import('../agents/index.js');
  const checkAnswer = agentAnswerCheck(definition);
  const modelSettings: ModelSettings = {
    ...(definition.model.temperature === undefined ? {} : { temperature: definition.model.temperature }),
    ...(definition.model.max_tokens === undefined ? {} : { maxOutputTokens: definition.model.max_tokens }),
  };
  return {
    pin,
    policyScopes: agentRunScopes(pin),
    ...(checkAnswer === undefined ? {} : { checkAnswer }),
    ...(Object.keys(modelSettings).length === 0 ? {} : { modelSettings }),
    ...(definition.workspace === 'agent' ? { ownWorkspace: true } : {}),
  };
}

/** A resumed run of an agent goes on as its version says, read again from the store. */
export async function agentLoopSettingsFor(runtime: ForgeRuntime, pin: AgentPin): Promise<AgentLoopSettings> {
  const { definition } = await (await agentServiceOf(runtime)).forRun(`${pin.slug}@${pin.version}`);
  return agentLoopSettings(pin, definition);
}
