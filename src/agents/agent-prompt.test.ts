import { describe, expect, it } from 'vitest';
import { AgentParameterError, AgentTemplateError, parseAgentDefinition, renderAgentPrompt, type AgentContext, type AgentDefinitionInput } from './index.js';

const researcher: AgentDefinitionInput = {
  version: 1,
  name: 'Researcher',
  slug: 'researcher',
  parameters: [
    { name: 'topic', type: 'text', required: true },
    { name: 'depth', type: 'enum', values: ['quick', 'thorough'], default: 'quick' },
    { name: 'max_sources', type: 'number' },
  ],
  outputs: [
    { name: 'summary', type: 'text', description: 'A short summary.' },
    { name: 'sources', type: 'json', schema: { type: 'array', items: { type: 'string' } } },
    { name: 'confident', type: 'boolean' },
  ],
  system_prompt: 'Research {{ params.topic }} ({{ params.depth }}{% if params.max_sources %}, at most {{ params.max_sources }} sources{% endif %}).\nReturn {{ output.summary.description | downcase }}',
};

const world = {
  tools: [{ name: 'web_search', description: 'Search the web' }],
  skills: [{ name: 'release-notes', description: 'Reads release notes' }],
  agents: [{ slug: 'writer', name: 'Writer', description: 'Writes posts' }],
  now: new Date('2026-03-01T10:00:00Z'),
};

function prompt(context: AgentContext, params: Record<string, unknown>, input: AgentDefinitionInput = researcher): string {
  return renderAgentPrompt(parseAgentDefinition(input), { ...world, context, params });
}

describe('agent prompts: preamble, system prompt and postamble per context', () => {
  it('in a chat: conversational, asks instead of guessing', () => {
    expect(prompt('chat', { topic: 'zod 4' })).toBe(
      [
        'You are Researcher, talking with a person in a chat. Answer conversationally. When you need something only they can tell you, ask for it instead of guessing.',
        'Research zod 4 (quick).\nReturn a short summary.',
        'Skills you may replay: release-notes (Reads release notes).\nOther agents: Writer (writer): Writes posts.\nThe current time is 2026-03-01T10:00:00.000Z.',
      ].join('\n\n'),
    );
  });

  it('in the background: assumes and finishes', () => {
    expect(prompt('background', { topic: 'zod 4', depth: 'thorough', max_sources: 4 }).split('\n\n').slice(0, 2)).toEqual([
      'You are Researcher, working in the background: nobody is there to answer questions. Make reasonable assumptions, say which ones you made, and finish the task.',
      'Research zod 4 (thorough, at most 4 sources).\nReturn a short summary.',
    ]);
  });

  it('in an automation: asks for one JSON object with every output, described compactly', () => {
    const text = prompt('automation', { topic: 'zod 4' });
    expect(text.split('\n\n')[0]).toBe('You are Researcher, one step of an automation: a program reads your reply, not a person. Do the task without asking questions.');
    expect(text.split('\n\n').at(-1)).toBe(
      [
        'Reply with exactly one JSON object and nothing else (no text around it, no code fence). Its keys:',
        '- "summary": a string. A short summary.',
        '- "sources": JSON matching the schema {"type":"array","items":{"type":"string"}}.',
        '- "confident": true or false.',
      ].join('\n'),
    );
  });

  it('in an automation, an agent without outputs is asked for plain text', () => {
    const text = prompt('automation', {}, { version: 1, name: 'Echo', slug: 'echo', system_prompt: 'Repeat the task.' });
    expect(text.endsWith('The current time is 2026-03-01T10:00:00.000Z.\n\nReply with the result only, as plain text.')).toBe(true);
  });

  it("uses the definition's preamble or postamble for a context instead of the default, and leaves out an empty one", () => {
    const custom = { ...researcher, preamble: { chat: 'You are {{ agent.name }} ({{ system.context }}).' }, postamble: { chat: '', automation: 'Answer as JSON:\n{{ system.output_format }}' } };
    expect(prompt('chat', { topic: 'x' }, custom)).toBe('You are Researcher (chat).\n\nResearch x (quick).\nReturn a short summary.');
    expect(prompt('automation', { topic: 'x' }, custom).split('\n\n').at(-1)).toBe(
      'Answer as JSON:\n- "summary": a string. A short summary.\n- "sources": JSON matching the schema {"type":"array","items":{"type":"string"}}.\n- "confident": true or false.',
    );
    expect(prompt('background', { topic: 'x' }, custom).startsWith('You are Researcher, working in the background')).toBe(true);
  });

  it('gives the templates the time, the date and the lists of tools, skills and agents', () => {
    const input = { version: 1 as const, name: 'Clock', slug: 'clock', system_prompt: '{{ system.date }} {{ system.time }} {{ system.tools | map: "name" | join: "," }} {{ system.skills.first.name }} {{ system.agents.first.slug }}', postamble: { chat: '' } };
    expect(prompt('chat', {}, { ...input, preamble: { chat: '' } })).toBe('2026-03-01 2026-03-01T10:00:00.000Z web_search release-notes writer');
  });
});

describe('agent prompts: parameters', () => {
  it('refuses to render without a required parameter, naming what to ask for', () => {
    try {
      prompt('chat', { depth: 'deep', extra: 1 });
      throw new Error('rendered');
    } catch (error) {
      expect(error).toBeInstanceOf(AgentParameterError);
      const refusal = error as AgentParameterError;
      expect(refusal.missing).toEqual(['topic']);
      expect(refusal.issues).toEqual([
        'extra: the agent has no parameter of that name (topic, depth, max_sources)',
        'topic: required, and no value was given',
        'depth: must be one of quick, thorough (got "deep")',
      ]);
    }
  });

  it('refuses values of the wrong type', () => {
    expect(() => prompt('chat', { topic: 7, max_sources: '4' })).toThrow('topic: must be text (got 7); max_sources: must be a number (got "4")');
  });

  it('a template error while rendering names the part, line and column', () => {
    const broken = { ...researcher, system_prompt: 'Research {{ params.topic }}.\n{{ output.summary.title }}' };
    try {
      prompt('chat', { topic: 'x' }, broken);
      throw new Error('rendered');
    } catch (error) {
      expect(error).toBeInstanceOf(AgentTemplateError);
      expect((error as AgentTemplateError).message).toBe('Template error in system_prompt line 2, column 4: undefined variable: output.summary.title');
    }
  });
});
