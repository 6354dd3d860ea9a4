import type { AgentContext, AgentDefinition } from './agent-definition.js';
import { describeExpectedJson } from './agent-outputs.js';
import { templateVariableReferences, type ParsedTemplate } from './agent-template.js';

/** A tool as a prompt lists it. */
export interface PromptTool {
  readonly name: string;
  readonly description: string;
}

/** A skill as a prompt lists it. */
export interface PromptSkill {
  readonly name: string;
  readonly description: string;
}

/** Another agent as a prompt lists it. */
export interface PromptAgent {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
}

/** What a run tells the templates about the world: where it runs, what it has, and when. */
export interface PromptEnvironment {
  readonly context: AgentContext;
  /** The tools the run offers the model. */
  readonly tools: readonly PromptTool[];
  /** The skills the run may replay (normally the definition's `skills`, with their descriptions). */
  readonly skills: readonly PromptSkill[];
  /** Agents it may hand work to or mention. */
  readonly agents: readonly PromptAgent[];
  readonly now: Date;
}

/** A parameter's value in a template: of its type, or null for an optional one nobody gave. */
export type ParameterValue = string | number | boolean | null;

const SYSTEM_VARIABLES = ['tools', 'skills', 'agents', 'time', 'date', 'context', 'output_format'] as const;
const AGENT_VARIABLES = ['name', 'slug', 'description', 'icon', 'tags'] as const;
const ROOTS = ['params', 'output', 'agent', 'system'] as const;

/**
 * The variables every template of `definition` renders with: `params.*` (each declared parameter,
 * null when optional and not given), `output.*` (each output's name, type, description and schema),
 * `agent.*` (its identity) and `system.*` (tools, skills and agents as name/description lists, `time`
 * as ISO 8601 UTC, `date` as YYYY-MM-DD, `context`, and `output_format`, the expected JSON described
 * compactly). Plain copies: nothing of the caller's objects is reachable from a template.
 */
export function promptScope(definition: AgentDefinition, environment: PromptEnvironment, params: Readonly<Record<string, ParameterValue>>): Record<string, unknown> {
  const time = environment.now.toISOString();
  return {
    params: Object.fromEntries(definition.parameters.map((parameter) => [parameter.name, params[parameter.name] ?? null])),
    output: Object.fromEntries(
      definition.outputs.map((output) => [output.name, { name: output.name, type: output.type, description: output.description, schema: output.schema === undefined ? null : structuredClone(output.schema) }]),
    ),
    agent: { name: definition.name, slug: definition.slug, description: definition.description, icon: definition.icon ?? null, tags: [...definition.tags] },
    system: {
      tools: environment.tools.map((tool) => ({ name: tool.name, description: tool.description })),
      skills: environment.skills.map((skill) => ({ name: skill.name, description: skill.description })),
      agents: environment.agents.map((agent) => ({ slug: agent.slug, name: agent.name, description: agent.description })),
      time,
      date: time.slice(0, 10),
      context: environment.context,
      output_format: describeExpectedJson(definition.outputs),
    },
  };
}

function namesOrNone(names: readonly string[]): string {
  return names.length === 0 ? 'it has none' : names.join(', ');
}

/**
 * What a template reads that no render will have, one message per reference with its line and
 * column: an unknown root, a parameter or output the definition does not declare, an unknown
 * `system.*` or `agent.*` variable. Found before any run, so a typo fails the save, not a run.
 */
export function templateReferenceProblems(definition: Pick<AgentDefinition, 'parameters' | 'outputs'>, template: ParsedTemplate): string[] {
  const parameters = definition.parameters.map((parameter) => parameter.name);
  const outputs = definition.outputs.map((output) => output.name);
  const problems: string[] = [];
  for (const { path, line, column } of templateVariableReferences(template)) {
    const [root, name] = path;
    const at = `line ${line}, column ${column}`;
    if (root === undefined) continue;
    if (!(ROOTS as readonly string[]).includes(root)) {
      problems.push(`${at}: "${root}" is not a variable templates have (they read ${ROOTS.map((known) => `${known}.*`).join(', ')})`);
    } else if (name === undefined) {
      continue;
    } else if (root === 'params' && !parameters.includes(name)) {
      problems.push(`${at}: params.${name} is not a parameter of this agent (${namesOrNone(parameters)})`);
    } else if (root === 'output' && !outputs.includes(name)) {
      problems.push(`${at}: output.${name} is not an output of this agent (${namesOrNone(outputs)})`);
    } else if (root === 'system' && !(SYSTEM_VARIABLES as readonly string[]).includes(name)) {
      problems.push(`${at}: system.${name} is not a system variable (they are ${SYSTEM_VARIABLES.join(', ')})`);
    } else if (root === 'agent' && !(AGENT_VARIABLES as readonly string[]).includes(name)) {
      problems.push(`${at}: agent.${name} is not an agent variable (they are ${AGENT_VARIABLES.join(', ')})`);
    }
  }
  return problems;
}
