import { describe, expect, it } from 'vitest';
import { diffAgentDefinitions, parseAgentDefinition, type AgentDefinitionInput } from './index.js';

const base: AgentDefinitionInput = {
  version: 1,
  name: 'Researcher',
  slug: 'researcher',
  tags: ['web'],
  model: { slug: 'openai:gpt-4.1-mini', temperature: 0.2 },
  tools: { web_search: 'allowed', shell: 'disabled' },
  parameters: [
    { name: 'topic', type: 'text', required: true },
    { name: 'depth', type: 'enum', values: ['quick', 'thorough'], default: 'quick' },
  ],
  outputs: [{ name: 'report', type: 'json', schema: { type: 'object', required: ['title'] } }],
  system_prompt: 'Research {{ params.topic }}.',
};

function diff(change: (input: AgentDefinitionInput) => AgentDefinitionInput) {
  return diffAgentDefinitions(parseAgentDefinition(base), parseAgentDefinition(change(structuredClone(base))));
}

describe('agent definition diff', () => {
  it('finds nothing between equal definitions, nor where only a default was written out', () => {
    expect(diff((input) => input)).toEqual([]);
    expect(diff((input) => ({ ...input, model: { ...input.model, allow_override: true }, description: '' }))).toEqual([]);
  });

  it('names changed, added and removed fields by path, with their values', () => {
    expect(
      diff((input) => ({
        ...input,
        system_prompt: 'Research {{ params.topic }} well.',
        tools: { web_search: 'approval', read_url: 'allowed' },
        model: { slug: 'openai:gpt-4.1-mini', max_tokens: 2000 },
        tags: ['web', 'research'],
        icon: '🔎',
      })),
    ).toEqual([
      { path: 'icon', after: '🔎' },
      { path: 'tags', before: ['web'], after: ['web', 'research'] },
      { path: 'model.max_tokens', after: 2000 },
      { path: 'model.temperature', before: 0.2 },
      { path: 'tools.web_search', before: 'allowed', after: 'approval' },
      { path: 'tools.read_url', after: 'allowed' },
      { path: 'tools.shell', before: 'disabled' },
      { path: 'system_prompt', before: 'Research {{ params.topic }}.', after: 'Research {{ params.topic }} well.' },
    ]);
  });

  it('compares parameters and outputs by name, down to their fields', () => {
    expect(
      diff((input) => ({
        ...input,
        parameters: [
          { name: 'topic', type: 'text', required: true, default: 'zod' },
          { name: 'depth', type: 'enum', values: ['quick', 'thorough', 'exhaustive'], default: 'quick' },
          { name: 'max_sources', type: 'number' },
        ],
        outputs: [{ name: 'report', type: 'json', schema: { type: 'object', required: ['title', 'url'] } }],
      })),
    ).toEqual([
      { path: 'parameters[topic].default', after: 'zod' },
      { path: 'parameters[depth].values', before: ['quick', 'thorough'], after: ['quick', 'thorough', 'exhaustive'] },
      { path: 'parameters[max_sources]', after: { name: 'max_sources', type: 'number', required: false, description: '' } },
      { path: 'outputs[report].schema.required', before: ['title'], after: ['title', 'url'] },
    ]);
  });

  it('reports a removed parameter whole, and a new order of the ones kept', () => {
    expect(diff((input) => ({ ...input, parameters: [{ name: 'topic', type: 'text', required: true }] }))).toEqual([
      { path: 'parameters[depth]', before: { name: 'depth', type: 'enum', values: ['quick', 'thorough'], required: false, default: 'quick', description: '' } },
    ]);
    expect(diff((input) => ({ ...input, parameters: [...input.parameters!].reverse() }))).toEqual([{ path: 'parameters', before: ['topic', 'depth'], after: ['depth', 'topic'] }]);
  });
});
