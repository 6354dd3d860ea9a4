import type { AgentDefinition, AgentParameter } from './agent-definition.js';
import { AgentParameterError } from './agent-errors.js';
import type { ParameterValue } from './prompt-variables.js';

function typeProblem(parameter: AgentParameter, value: unknown): string | undefined {
  switch (parameter.type) {
    case 'text':
      return typeof value === 'string' ? undefined : 'must be text';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'enum':
      return typeof value === 'string' && (parameter.values ?? []).includes(value) ? undefined : `must be one of ${(parameter.values ?? []).join(', ')}`;
  }
}

/** A value as an error shows it: JSON, cut to a line. */
function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Every parameter's value for one run: the given one, else its default, else null for an optional
 * parameter. Throws `AgentParameterError` listing every problem (a name the agent does not have, a
 * value of the wrong type, a required parameter with neither value nor default: those are also in
 * `missing`, to ask for), so nothing runs on a guess.
 */
export function resolveAgentParameters(definition: AgentDefinition, given: Readonly<Record<string, unknown>>): Record<string, ParameterValue> {
  const issues: string[] = [];
  const missing: string[] = [];
  const declared = new Set(definition.parameters.map((parameter) => parameter.name));
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) issues.push(`${name}: the agent has no parameter of that name (${[...declared].join(', ') || 'it has none'})`);
  }
  const values: Record<string, ParameterValue> = {};
  for (const parameter of definition.parameters) {
    const value = Object.hasOwn(given, parameter.name) ? given[parameter.name] : undefined;
    if (value === undefined || value === null) {
      if (parameter.default !== undefined) values[parameter.name] = parameter.default;
      else if (parameter.required) {
        missing.push(parameter.name);
        issues.push(`${parameter.name}: required, and no value was given`);
      } else values[parameter.name] = null;
      continue;
    }
    const problem = typeProblem(parameter, value);
    if (problem === undefined) values[parameter.name] = value as ParameterValue;
    else issues.push(`${parameter.name}: ${problem} (got ${shortJson(value)})`);
  }
  if (issues.length > 0) throw new AgentParameterError(definition.slug, issues, missing);
  return values;
}
