import type { AgentOutput, OutputType } from './agent-definition.js';

const jsonTypes: Record<Exclude<OutputType, 'json'>, string> = { text: 'string', number: 'number', boolean: 'boolean' };

function valueSchema(output: AgentOutput): Record<string, unknown> {
  const schema: Record<string, unknown> = output.type === 'json' ? { ...output.schema } : { type: jsonTypes[output.type] };
  return output.description === '' || schema['description'] !== undefined ? schema : { ...schema, description: output.description };
}

/**
 * The JSON Schema of what an agent with these outputs returns in an automation: one object with every
 * output as a required key, nothing else. Text is a string, number a number, boolean a boolean, json
 * its own schema.
 */
export function outputsJsonSchema(outputs: readonly AgentOutput[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(outputs.map((output) => [output.name, valueSchema(output)])),
    required: outputs.map((output) => output.name),
    additionalProperties: false,
  };
}

function describeValue(output: AgentOutput): string {
  switch (output.type) {
    case 'text':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'json':
      return `JSON matching the schema ${JSON.stringify(output.schema)}`;
  }
}

/**
 * The expected JSON, compactly, one key a line: `- "summary": a string. A short summary.` What an
 * automation's postamble shows the model (as `system.output_format`); empty when there are no outputs.
 */
export function describeExpectedJson(outputs: readonly AgentOutput[]): string {
  return outputs.map((output) => `- ${JSON.stringify(output.name)}: ${describeValue(output)}.${output.description === '' ? '' : ` ${output.description}`}`).join('\n');
}
