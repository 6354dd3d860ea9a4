import type { AgentDefinition } from './agent-definition.js';
import { AgentOutputError } from './agent-output-error.js';
import { outputRetryMessage, validateAgentOutput } from './agent-output-validation.js';

/**
 * The loop's check of an agent's final answer against its output definitions: undefined when the
 * agent has none or the answer fits; otherwise the one retry's message (the problems, and the JSON
 * expected) and the `AgentOutputError` the run fails with if the retried answer does not fit either.
 */
export function agentAnswerCheck(definition: AgentDefinition): ((answer: string) => { readonly retryMessage: string; readonly error: Error } | undefined) | undefined {
  if (definition.outputs.length === 0) return undefined;
  return (answer) => {
    const checked = validateAgentOutput(definition, answer);
    if (checked.ok) return undefined;
    return { retryMessage: outputRetryMessage(checked.errors, definition), error: new AgentOutputError(definition.slug, checked) };
  };
}
