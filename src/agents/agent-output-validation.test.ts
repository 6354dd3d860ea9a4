import { describe, expect, it } from 'vitest';
import { ForgeError } from '../core/index.js';
import { AgentOutputError, MAX_OUTPUT_ERRORS, describeExpectedJson, outputRetryMessage, parseAgentDefinition, validateAgentOutput, type AgentDefinitionInput } from './index.js';

function withOutputs(outputs: AgentDefinitionInput['outputs']) {
  return parseAgentDefinition({ version: 1, name: 'Reporter', slug: 'reporter', outputs, system_prompt: 'Report.' });
}

const report = withOutputs([
  { name: 'summary', type: 'text', description: 'A short summary.' },
  {
    name: 'sources',
    type: 'json',
    schema: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' }, title: { type: 'string' } }, required: ['url'] } },
  },
  { name: 'confidence', type: 'number' },
]);

const good = { summary: 'Tides follow the moon.', sources: [{ url: 'https://example.org/tides', title: 'Tides' }], confidence: 0.8 };

describe('validateAgentOutput: several outputs, one JSON object', () => {
  it('accepts the object alone, in a ```json block, or as the first object in prose', () => {
    const json = JSON.stringify(good);
    expect(validateAgentOutput(report, json)).toEqual({ ok: true, value: good });
    expect(validateAgentOutput(report, `Here you go:\n\n\`\`\`json\n${JSON.stringify(good, null, 2)}\n\`\`\`\nAnything else?`)).toEqual({ ok: true, value: good });
    expect(validateAgentOutput(report, `I looked {carefully} at three pages. The result: ${json} Hope this helps.`)).toEqual({ ok: true, value: good });
    expect(validateAgentOutput(report, `A stray { opens here. The result: ${json}`)).toEqual({ ok: true, value: good });
  });

  it('skips a fenced block of another language and reads the JSON block after it', () => {
    const answer = `Run this:\n\`\`\`sh\necho hi\n\`\`\`\nResult:\n\`\`\`\n${JSON.stringify(good)}\n\`\`\``;
    expect(validateAgentOutput(report, answer)).toEqual({ ok: true, value: good });
  });

  it('names a ```json block that does not parse, and a reply with no JSON object at all', () => {
    const broken = validateAgentOutput(report, '```json\n{"summary": "x",}\n```');
    expect(broken.ok).toBe(false);
    if (broken.ok) return;
    expect(broken.errors).toHaveLength(1);
    expect(broken.errors[0]).toMatch(/^the ```json block is not valid JSON \(/);
    expect(broken.raw).toBe('```json\n{"summary": "x",}\n```');

    const prose = validateAgentOutput(report, 'The tides follow the moon, with {high} confidence.');
    expect(prose).toMatchObject({ ok: false, errors: [expect.stringMatching(/^the reply holds no JSON object: the \{…\} at character 33 is not valid JSON/)] });
    expect(validateAgentOutput(report, '[1, 2]')).toMatchObject({ ok: false, errors: ['the reply must be one JSON object with the outputs as keys; it is an array'] });
  });

  it('names every schema violation by its path: missing and extra keys, wrong types, nested fields', () => {
    const result = validateAgentOutput(report, JSON.stringify({ sources: [{ url: 'https://a.example' }, { title: 'no url' }, { url: 7 }], confidence: 'high', mood: 'sunny' }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      'summary: missing',
      'mood: not an output of this agent (its outputs are summary, sources, confidence)',
      expect.stringMatching(/^sources\[1\]\.url: /),
      expect.stringMatching(/^sources\[2\]\.url: .*string/),
      expect.stringMatching(/^confidence: .*number/),
    ]);
  });

  it('checks a schema with a pattern on the linear-time validator, also by path', () => {
    const coded = withOutputs([{ name: 'ticket', type: 'json', schema: { type: 'object', properties: { id: { type: 'string', pattern: '^[A-Z]+-[0-9]+$' } }, required: ['id'] } }]);
    expect(validateAgentOutput(coded, '{"ticket": {"id": "FORGE-17"}}')).toEqual({ ok: true, value: { ticket: { id: 'FORGE-17' } } });
    expect(validateAgentOutput(coded, '{"ticket": {"id": "forge seventeen"}}')).toMatchObject({ ok: false, errors: ['ticket.id: must match pattern "^[A-Z]+-[0-9]+$"'] });
  });

  it('wants a single json output keyed by its name, as the automation postamble asks', () => {
    const tags = withOutputs([{ name: 'tags', type: 'json', schema: { type: 'array', items: { type: 'string' } } }]);
    expect(validateAgentOutput(tags, '{"tags": ["a", "b"]}')).toEqual({ ok: true, value: { tags: ['a', 'b'] } });
    expect(validateAgentOutput(tags, '["a", "b"]')).toMatchObject({ ok: false, errors: ['the reply must be one JSON object with the outputs as keys; it is an array'] });
  });

  it('lists at most MAX_OUTPUT_ERRORS problems, then how many more', () => {
    const list = withOutputs([{ name: 'ids', type: 'json', schema: { type: 'array', items: { type: 'integer' } } }]);
    const result = validateAgentOutput(list, JSON.stringify({ ids: Array.from({ length: 50 }, (_, index) => `id-${index}`) }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(MAX_OUTPUT_ERRORS + 1);
    expect(result.errors.at(-1)).toBe('…and 30 more problems');
  });

  it('stays linear on a long reply full of braces: never closed, or nested 100,000 deep', () => {
    expect(validateAgentOutput(report, `${'{ '.repeat(100_000)}no JSON here`)).toMatchObject({ ok: false, errors: [expect.stringContaining('the { at character 1 is never closed')] });
    expect(validateAgentOutput(report, `${'{'.repeat(100_000)}${'}'.repeat(100_000)}`).ok).toBe(false);
    // Quadratic, either would take minutes: the test's own timeout fails it.
  });
});

describe('validateAgentOutput: a single text, number or boolean output', () => {
  const text = withOutputs([{ name: 'summary', type: 'text' }]);
  const number = withOutputs([{ name: 'score', type: 'number' }]);
  const flag = withOutputs([{ name: 'approved', type: 'boolean' }]);

  it('a text output takes any non-empty text, or the object keyed by its name', () => {
    expect(validateAgentOutput(text, '  The moon pulls the sea.\n')).toEqual({ ok: true, value: { summary: 'The moon pulls the sea.' } });
    expect(validateAgentOutput(text, '{"summary": "The moon."}')).toEqual({ ok: true, value: { summary: 'The moon.' } });
    expect(validateAgentOutput(text, '{"verdict": "fine"}')).toEqual({ ok: true, value: { summary: '{"verdict": "fine"}' } });
    expect(validateAgentOutput(text, '42')).toEqual({ ok: true, value: { summary: '42' } });
    expect(validateAgentOutput(text, ' \n ')).toMatchObject({ ok: false, errors: ['summary: the reply is empty; it must be the text of the result'] });
  });

  it('a number output takes the bare number or the keyed object, and names what it got otherwise', () => {
    expect(validateAgentOutput(number, ' 0.75 ')).toEqual({ ok: true, value: { score: 0.75 } });
    expect(validateAgentOutput(number, '```json\n-3\n```')).toEqual({ ok: true, value: { score: -3 } });
    expect(validateAgentOutput(number, '{"score": 9}')).toEqual({ ok: true, value: { score: 9 } });
    expect(validateAgentOutput(number, 'About 7, I think.')).toMatchObject({ ok: false, errors: ['score: expected a number alone (like 42) or {"score":42}; the reply is "About 7, I think."'] });
    expect(validateAgentOutput(number, '{"score": "nine"}')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^score: .*number/)] });
  });

  it('a boolean output takes true or false in any case, or the keyed object', () => {
    expect(validateAgentOutput(flag, 'true')).toEqual({ ok: true, value: { approved: true } });
    expect(validateAgentOutput(flag, 'False\n')).toEqual({ ok: true, value: { approved: false } });
    expect(validateAgentOutput(flag, '{"approved": true}')).toEqual({ ok: true, value: { approved: true } });
    expect(validateAgentOutput(flag, 'yes')).toMatchObject({ ok: false, errors: ['approved: expected true or false alone, or {"approved":true}; the reply is "yes"'] });
  });

  it('an agent without outputs accepts any answer and has no output values', () => {
    expect(validateAgentOutput(withOutputs([]), 'whatever it says')).toEqual({ ok: true, value: {} });
  });
});

describe('the one retry, and the error after it', () => {
  it('the retry message names each problem and restates the expected JSON', () => {
    const failed = validateAgentOutput(report, '{"summary": "x", "confidence": "high"}');
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    const message = outputRetryMessage(failed.errors, report);
    expect(message.split('\n')).toEqual([
      'Your reply does not match the output this agent must return:',
      '- sources: missing',
      expect.stringMatching(/^- confidence: /),
      '',
      'Reply again with exactly one JSON object and nothing else (no text around it, no code fence). Its keys:',
      ...describeExpectedJson(report.outputs).split('\n'),
    ]);
    expect(message).toContain('- "summary": a string. A short summary.');
  });

  it('for a single number output it asks for the number alone, or the keyed object', () => {
    const number = withOutputs([{ name: 'score', type: 'number', description: 'From 0 to 10.' }]);
    const failed = validateAgentOutput(number, 'seven');
    if (failed.ok) throw new Error('expected a failure');
    expect(outputRetryMessage(failed.errors, number)).toBe(
      [
        'Your reply does not match the output this agent must return:',
        '- score: expected a number alone (like 42) or {"score":42}; the reply is "seven"',
        '',
        'Reply again with the number alone and nothing else, or with one JSON object with this key:',
        '- "score": a number. From 0 to 10.',
      ].join('\n'),
    );
  });

  it('AgentOutputError carries the problems and the invalid answer, and says what to do', () => {
    const failed = validateAgentOutput(report, '{"summary": 1, "sources": [], "confidence": "x", "extra": true, "more": 1}');
    if (failed.ok) throw new Error('expected a failure');
    const error = new AgentOutputError('reporter', failed);
    expect(ForgeError.isInstance(error)).toBe(true);
    expect(error.name).toBe('AgentOutputError');
    expect(error.raw).toBe('{"summary": 1, "sources": [], "confidence": "x", "extra": true, "more": 1}');
    expect(error.errors).toEqual(failed.errors);
    expect(error.errors).toHaveLength(4);
    expect(error.message).toBe(`Agent "reporter" answered with output that does not match its output definitions, also after one retry: ${failed.errors.slice(0, 3).join('; ')} (4 problems in all)`);
    expect(error.hint).toContain('forge agent show reporter');
  });
});
