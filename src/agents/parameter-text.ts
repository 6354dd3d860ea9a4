import type { AgentDefinition } from './agent-definition.js';
import { AgentParameterError } from './agent-errors.js';
import type { ParameterValue } from './prompt-variables.js';

/**
 * Parameter values written as text (`forge run --param k=v`, a query string) read as their parameter's
 * type: numbers as numbers, `true`/`false`/`yes`/`no` as booleans, enum and text as they are. A name the
 * agent does not have, or text that is not of its parameter's type, is an `AgentParameterError` naming
 * every problem; nothing is guessed.
 */
export function parameterValuesFromText(definition: AgentDefinition, given: Readonly<Record<string, string>>): Record<string, ParameterValue> {
  const values: Record<string, ParameterValue> = {};
  const issues: string[] = [];
  for (const [name, text] of Object.entries(given)) {
    const parameter = definition.parameters.find((candidate) => candidate.name === name);
    if (parameter === undefined) {
      issues.push(`${name}: the agent has no parameter of that name (${definition.parameters.map((candidate) => candidate.name).join(', ') || 'it has none'})`);
      continue;
    }
    if (parameter.type === 'number') {
      const number = Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(number)) issues.push(`${name}: "${text}" is not a number`);
      else values[name] = number;
    } else if (parameter.type === 'boolean') {
      const word = text.trim().toLowerCase();
      if (['true', 'yes', '1', 'on'].includes(word)) values[name] = true;
      else if (['false', 'no', '0', 'off'].includes(word)) values[name] = false;
      else issues.push(`${name}: "${text}" is not true or false`);
    } else values[name] = text;
  }
  if (issues.length > 0) throw new AgentParameterError(definition.slug, issues, []);
  return values;
}
