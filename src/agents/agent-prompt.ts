import type { AgentContext, AgentDefinition } from './agent-definition.js';
import { resolveAgentParameters } from './agent-parameters.js';
import { parseAgentTemplate, renderAgentTemplate } from './agent-template.js';
import { promptScope, type PromptEnvironment } from './prompt-variables.js';

const sharedPostamble = `{% if system.skills.size > 0 %}Skills you may replay: {% for skill in system.skills %}{{ skill.name }}{% if skill.description != "" %} ({{ skill.description }}){% endif %}{% unless forloop.last %}; {% endunless %}{% endfor %}.
{% endif %}{% if system.agents.size > 0 %}Other agents: {% for other in system.agents %}{{ other.name }} ({{ other.slug }}){% if other.description != "" %}: {{ other.description }}{% endif %}{% unless forloop.last %}; {% endunless %}{% endfor %}.
{% endif %}The current time is {{ system.time }}.`;

/** What Forge puts before the system prompt in each context, unless the definition replaces it. Liquid, like the system prompt. */
export const DEFAULT_PREAMBLES: Readonly<Record<AgentContext, string>> = {
  chat: 'You are {{ agent.name }}, talking with a person in a chat. Answer conversationally. When you need something only they can tell you, ask for it instead of guessing.',
  background: 'You are {{ agent.name }}, working in the background: nobody is there to answer questions. Make reasonable assumptions, say which ones you made, and finish the task.',
  automation: 'You are {{ agent.name }}, one step of an automation: a program reads your reply, not a person. Do the task without asking questions.',
};

/**
 * What Forge puts after the system prompt in each context, unless the definition replaces it: the
 * skills and agents at hand and the time; in an automation also the reply format, one JSON object
 * with the outputs as `system.output_format` describes them (or plain text for an agent without outputs).
 */
export const DEFAULT_POSTAMBLES: Readonly<Record<AgentContext, string>> = {
  chat: sharedPostamble,
  background: sharedPostamble,
  automation: `${sharedPostamble}

{% if system.output_format != "" %}Reply with exactly one JSON object and nothing else (no text around it, no code fence). Its keys:
{{ system.output_format }}{% else %}Reply with the result only, as plain text.{% endif %}`,
};

/** What a run renders an agent's prompt with: where it runs and what it has, and the parameter values given. */
export interface AgentPromptOptions extends PromptEnvironment {
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * The system prompt of one run: the context's preamble, the definition's `system_prompt` and the
 * context's postamble, each a Liquid template rendered in the sandbox with the same variables,
 * trimmed, and joined by blank lines (an empty part is left out). A definition's preamble or
 * postamble for the context replaces the default; an empty one removes it. Throws
 * `AgentParameterError` for missing or wrong parameters, and `AgentTemplateError` (with line and
 * column) when a template fails.
 */
export function renderAgentPrompt(definition: AgentDefinition, options: AgentPromptOptions): string {
  const params = resolveAgentParameters(definition, options.params);
  const scope = promptScope(definition, options, params);
  const { context } = options;
  const parts = [
    parseAgentTemplate(`preamble.${context}`, definition.preamble?.[context] ?? DEFAULT_PREAMBLES[context]),
    parseAgentTemplate('system_prompt', definition.system_prompt),
    parseAgentTemplate(`postamble.${context}`, definition.postamble?.[context] ?? DEFAULT_POSTAMBLES[context]),
  ];
  return parts
    .map((part) => renderAgentTemplate(part, scope).trim())
    .filter((text) => text !== '')
    .join('\n\n');
}
