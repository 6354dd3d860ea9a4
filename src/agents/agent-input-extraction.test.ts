import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedUtilityModel } from '../../test/fixtures/tool-context.js';
import type { UtilityModel } from '../core/index.js';
import { CostMeter, createUtilityModel, resolveModel } from '../llm/index.js';
import { extractAgentParameters, parameterQuestion, parseAgentDefinition, resolveAgentParameters, type AgentDefinitionInput } from './index.js';

const researcher = parseAgentDefinition({
  version: 1,
  name: 'Researcher',
  slug: 'researcher',
  description: 'Finds sources and summarizes them.',
  parameters: [
    { name: 'topic', type: 'text', required: true, description: 'What to research.' },
    { name: 'depth', type: 'enum', values: ['quick', 'thorough'], default: 'quick' },
    { name: 'max_sources', type: 'number', default: 5 },
    { name: 'include_code', type: 'boolean', default: false },
  ],
  system_prompt: 'Research {{ params.topic }}.',
});

function agent(parameters: AgentDefinitionInput['parameters']) {
  return parseAgentDefinition({ version: 1, name: 'Helper', slug: 'helper', parameters, system_prompt: 'Help.' });
}

describe('extractAgentParameters: explicit values, read without a model', () => {
  it('reads key: value, key=value and --key value in any case and with _, - or a space, at zero model calls', async () => {
    const model = createScriptedUtilityModel('{}');
    const extraction = await extractAgentParameters(researcher, 'Topic: the Rust borrow checker, Depth=thorough\n--max-sources 12 include code: yes', { utilityModel: model });
    expect(extraction).toEqual({
      values: { topic: 'the Rust borrow checker', depth: 'thorough', max_sources: 12, include_code: true },
      how: { topic: 'explicit', depth: 'explicit', max_sources: 'explicit', include_code: 'boolean' },
      missing: [],
      rejected: [],
      modelCalls: 0,
    });
    expect(model.requests).toHaveLength(0);
  });

  it('reads a quoted text value exactly, and ends an unquoted one at the next key or the end of the line', async () => {
    const extraction = await extractAgentParameters(researcher, 'topic: "WebGPU: compute shaders, in depth" max_sources=3.\nthanks!');
    expect(extraction.values).toMatchObject({ topic: 'WebGPU: compute shaders, in depth', max_sources: 3 });
    const plain = await extractAgentParameters(researcher, 'topic: zig comptime. depth: quick');
    expect(plain.values).toMatchObject({ topic: 'zig comptime', depth: 'quick' });
  });

  it('does not read a key inside a longer word or a longer key', async () => {
    const definition = agent([
      { name: 'items', type: 'number' },
      { name: 'max_items', type: 'number' },
      { name: 'topic', type: 'text' },
    ]);
    const extraction = await extractAgentParameters(definition, 'max items: 3, subtopic: birds');
    expect(extraction.values).toEqual({ max_items: 3 });
    expect(extraction.how).toEqual({ max_items: 'explicit' });
  });

  it('rejects a stated value that does not fit, names it, and neither defaults it nor sends it to the model', async () => {
    const model = createScriptedUtilityModel('{"topic": "gardening", "depth": "thorough", "include_code": true}');
    const extraction = await extractAgentParameters(researcher, 'Something on gardening; depth: medium, include_code: maybe', { utilityModel: model });
    expect(extraction.rejected).toEqual([
      { name: 'depth', given: 'medium', problem: 'must be one of quick, thorough' },
      { name: 'include_code', given: 'maybe', problem: 'must be yes, no, true or false' },
    ]);
    expect(extraction.values).toEqual({ topic: 'gardening', max_sources: 5 });
    expect(extraction.how).toEqual({ topic: 'model', max_sources: 'default' });
    expect(model.requests).toHaveLength(1);
    const schema = JSON.parse(/JSON Schema of your answer:\n(.*)\n/.exec(model.requests[0]!.prompt)![1]!) as { required: string[] };
    expect(schema.required).toEqual(['topic', 'max_sources']);
  });

  it('does not pick between two different values given for one key', async () => {
    const extraction = await extractAgentParameters(researcher, 'topic: cats\ntopic: dogs');
    expect(extraction.rejected).toEqual([{ name: 'topic', given: 'cats / dogs', problem: 'is given more than once, with different values' }]);
    expect(extraction.missing).toEqual(['topic']);
  });
});

describe('extractAgentParameters: enum words and the only number', () => {
  it('reads the one enum value named as a word and the message\'s only number, then defaults, at zero model calls', async () => {
    const extraction = await extractAgentParameters(researcher, 'topic: tide pools\nA thorough look, 8 sources at most.');
    expect(extraction).toMatchObject({
      values: { topic: 'tide pools', depth: 'thorough', max_sources: 8, include_code: false },
      how: { topic: 'explicit', depth: 'enum', max_sources: 'number', include_code: 'default' },
      missing: [],
      modelCalls: 0,
    });
  });

  it('does not guess an enum when two of its values are named', async () => {
    const model = createScriptedUtilityModel('{"depth":null}');
    const extraction = await extractAgentParameters(researcher, 'topic: owls. quick or thorough, whichever you like', { utilityModel: model });
    expect(extraction.how['depth']).toBe('default');
    const required = agent([{ name: 'depth', type: 'enum', values: ['quick', 'thorough'], required: true }]);
    const strict = await extractAgentParameters(required, 'quick or thorough, whichever you like');
    expect(strict).toMatchObject({ values: {}, missing: ['depth'], modelCalls: 0 });
  });

  it('does not hand one word to two enum parameters that both have it', async () => {
    const definition = agent([
      { name: 'tone', type: 'enum', values: ['casual', 'formal'], required: true },
      { name: 'summary', type: 'enum', values: ['short', 'long'], required: true },
      { name: 'reply', type: 'enum', values: ['short', 'long'], required: true },
    ]);
    const extraction = await extractAgentParameters(definition, 'keep it short and formal');
    expect(extraction.values).toEqual({ tone: 'formal' });
    expect(extraction.missing).toEqual(['summary', 'reply']);
  });

  it('counts only whole numbers words: versions, model names and dates are not numbers, and two numbers are not guessed', async () => {
    const single = agent([{ name: 'count', type: 'number', required: true }]);
    expect((await extractAgentParameters(single, 'compare v2 and gpt-4 releases since 2024-05-01')).missing).toEqual(['count']);
    expect((await extractAgentParameters(single, 'the top 5 crates of 2024')).missing).toEqual(['count']);
    expect((await extractAgentParameters(single, 'list (7) crates')).values).toEqual({ count: 7 });
  });

  it('does not read a number or an enum word out of an explicit value of another parameter', async () => {
    const extraction = await extractAgentParameters(researcher, 'topic: the 3 quick wins of caching');
    expect(extraction.values).toEqual({ topic: 'the 3 quick wins of caching', depth: 'quick', max_sources: 5, include_code: false });
    expect(extraction.how).toMatchObject({ depth: 'default', max_sources: 'default' });
  });
});

describe('extractAgentParameters: one structured model call for the rest', () => {
  it('asks once, for just the parameters the rules could not read, with their JSON Schema', async () => {
    const model = createScriptedUtilityModel('```json\n{"topic": "how octopuses sleep", "include_code": false}\n```');
    const extraction = await extractAgentParameters(researcher, 'I have always wondered how octopuses sleep. Make it thorough.', { utilityModel: model });

    expect(model.requests).toHaveLength(1);
    expect(extraction.modelCalls).toBe(1);
    expect(extraction.values).toEqual({ topic: 'how octopuses sleep', depth: 'thorough', max_sources: 5, include_code: false });
    expect(extraction.how).toEqual({ topic: 'model', depth: 'enum', max_sources: 'default', include_code: 'model' });
    const request = model.requests[0]!;
    expect(request.purpose).toBe('agent-parameters');
    const schema = JSON.parse(/JSON Schema of your answer:\n(.*)\n/.exec(request.prompt)![1]!) as { properties: Record<string, unknown>; required: string[] };
    expect(schema.required).toEqual(['topic', 'max_sources', 'include_code']);
    expect(schema.properties['topic']).toEqual({ type: ['string', 'null'], description: 'What to research.' });
    expect(schema.properties['max_sources']).toEqual({ type: ['number', 'null'] });
  });

  it('drops an answer that does not fit its parameter and reports the required one missing', async () => {
    const definition = agent([
      { name: 'topic', type: 'text', required: true },
      { name: 'count', type: 'number', required: true },
      { name: 'tone', type: 'enum', values: ['plain', 'formal'], required: true },
      { name: 'draft', type: 'boolean', required: true },
    ]);
    const model = createScriptedUtilityModel('{"topic": "   ", "count": "twelve", "tone": "cheerful", "draft": "yes", "extra": 1}');
    const extraction = await extractAgentParameters(definition, 'write something nice', { utilityModel: model });
    expect(extraction).toEqual({ values: {}, how: {}, missing: ['topic', 'count', 'tone', 'draft'], rejected: [], modelCalls: 1 });
  });

  it('takes an enum answer in another case as the allowed value, and drops an answer that is not JSON', async () => {
    const definition = agent([{ name: 'tone', type: 'enum', values: ['plain', 'formal'], required: true }]);
    expect((await extractAgentParameters(definition, 'make it stiff', { utilityModel: createScriptedUtilityModel('{"tone": "Formal"}') })).values).toEqual({ tone: 'formal' });
    const prose = await extractAgentParameters(definition, 'make it stiff', { utilityModel: createScriptedUtilityModel('I think formal.') });
    expect(prose).toMatchObject({ values: {}, missing: ['tone'], modelCalls: 1 });
  });

  it('makes no call without a model and never invents a required value', async () => {
    const extraction = await extractAgentParameters(researcher, 'tell me something');
    expect(extraction).toEqual({
      values: { depth: 'quick', max_sources: 5, include_code: false },
      how: { depth: 'default', max_sources: 'default', include_code: 'default' },
      missing: ['topic'],
      rejected: [],
      modelCalls: 0,
    });
  });
});

describe('parameterQuestion: asking for what is missing', () => {
  it('names each missing or rejected parameter, and the reply it suggests is read at zero model calls', async () => {
    const first = await extractAgentParameters(researcher, 'depth: deep please');
    const question = parameterQuestion(researcher, first);
    expect(question).toBe(
      [
        'To run Researcher I need values for:',
        '- topic (text): What to research.',
        '- depth: "deep" must be one of quick, thorough',
        '',
        'Reply with each as `topic: …`, one a line.',
      ].join('\n'),
    );
    const model = createScriptedUtilityModel('{}');
    const answer = await extractAgentParameters(researcher, 'topic: lichens\ndepth: thorough', { utilityModel: model });
    // The parameters it leaves unread all have defaults: no reason to call the model.
    expect(answer).toMatchObject({ values: { topic: 'lichens', depth: 'thorough' }, missing: [], modelCalls: 0 });
    expect(model.requests).toHaveLength(0);
    expect(parameterQuestion(researcher, answer)).toBeUndefined();
    expect(resolveAgentParameters(researcher, answer.values)).toEqual({ topic: 'lichens', depth: 'thorough', max_sources: 5, include_code: false });
  });
});

describe('extractAgentParameters through the metered utility model (aimock)', () => {
  let mock: LLMock;
  let meter: CostMeter;
  let model: UtilityModel;

  beforeAll(async () => {
    mock = new LLMock({ port: 0, host: '127.0.0.1' });
    await mock.start();
    mock.on({ userMessage: 'wondered how octopuses sleep' }, { content: '{"topic": "how octopuses sleep", "max_sources": null, "include_code": null}' });
    meter = new CostMeter(null);
    model = createUtilityModel(resolveModel('openai:gpt-4.1-mini', { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: `${mock.url}/v1` }), meter, () => undefined);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('explicit values cost 0 model calls; what rules cannot read costs exactly one, counted by the meter and the mock', async () => {
    const explicit = await extractAgentParameters(researcher, 'topic: lichens, depth: thorough, max_sources: 3, include_code: no', { utilityModel: model });
    expect(explicit.modelCalls).toBe(0);
    expect(meter.totals().llmCalls).toBe(0);
    expect(mock.getRequests()).toHaveLength(0);

    const prose = await extractAgentParameters(researcher, 'I always wondered how octopuses sleep; a thorough answer please.', { utilityModel: model, signal: AbortSignal.timeout(10_000) });
    expect(prose).toMatchObject({ values: { topic: 'how octopuses sleep', depth: 'thorough', max_sources: 5, include_code: false }, modelCalls: 1, missing: [] });
    expect(meter.totals().llmCalls).toBe(1);
    expect(mock.getRequests()).toHaveLength(1);
  });
});
