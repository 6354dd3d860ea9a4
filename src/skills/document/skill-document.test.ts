import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SkillFormatError } from '../skill-errors.js';
import { parseSkillDocument } from './parse-skill-document.js';
import { SKILL_FORMAT_VERSION } from './skill-document.js';

function corpus(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./corpus/${name}`, import.meta.url), 'utf8')) as unknown;
}

function refusal(value: unknown): SkillFormatError {
  try {
    parseSkillDocument(value);
  } catch (error) {
    if (error instanceof SkillFormatError) return error;
    throw error;
  }
  throw new Error('the document was accepted');
}

describe('skill documents: the versioned corpus', () => {
  it('reads the current version unchanged', () => {
    expect(parseSkillDocument(corpus('v2-current.json'))).toEqual(corpus('v2-current.json'));
  });

  it('upgrades a version 1 skill: variables become inputs, a choice among a collection a selection keyed by its input, nothing pinned, side effects left to the live tool', () => {
    const document = parseSkillDocument(corpus('v1-legacy.json'));
    expect(document.version).toBe(SKILL_FORMAT_VERSION);
    expect(document.steps).toEqual([
      {
        tool: 'web_search',
        side_effect: 'unknown',
        arguments: [
          { path: 'query', binding: { kind: 'input', name: 'topic' } },
          { path: 'max_results', binding: { kind: 'input', name: 'limit' } },
        ],
        preconditions: [],
      },
    ]);
    expect(document.variable_origins).toEqual({ topic: { kind: 'argument', step: 0, path: 'query', from: 'request' }, limit: { kind: 'argument', step: 0, path: 'max_results', from: 'request' } });
    expect(document.recordings).toEqual([{ run_id: 'run-1', task: 'Show the top 3 results for lumen', inputs: { topic: 'lumen', limit: 3 }, steps: [{ tool: 'web_search', input: { query: 'lumen', max_results: 3 }, result: { query: 'lumen', results: [] } }] }]);
  });

  it('upgrades a version 1 choice among search results to a selection with URL scoring and a key-field condition', () => {
    const v1 = corpus('v1-legacy.json') as Record<string, unknown>;
    const document = parseSkillDocument({
      ...v1,
      steps: [
        ...(v1['steps'] as unknown[]),
        {
          tool: 'read_url',
          arguments: [
            { path: 'url', binding: { kind: 'step-result', step: 0, path: 'results[1].url', collection: 'results[*].url', value_kind: 'url', key_field: { field: 'title', variable: 'topic' }, prefix: null, suffix: null, recorded: 'https://docs.lumen.dev' } },
            { path: 'note', binding: { kind: 'constant', value: 'x' } },
          ],
        },
      ],
    });
    expect(document.selections).toEqual([{ name: 'choice_1', cardinality: 'one', steps: [0], collection: 'results[*]', field: 'url', scoring: 'url', conditions: [{ field: 'title', operator: 'equals', operand: { input: 'topic' } }], recorded: ['https://docs.lumen.dev'] }]);
    expect(document.steps[1]!.arguments).toEqual([
      { path: 'url', binding: { kind: 'selected', selection: 'choice_1', field: 'url' } },
      { path: 'note', binding: { kind: 'constant', value: 'x', pinned: false } },
    ]);
  });

  it('upgrades a version 0 (seed format) skill: {{ var }} placeholders become template slots bound to inputs, examples are kept', () => {
    const document = parseSkillDocument(corpus('v0-legacy.json'));
    expect(document.version).toBe(SKILL_FORMAT_VERSION);
    expect(document.name).toBe('recipe-release-notes');
    expect(document.steps).toEqual([
      {
        tool: 'web_search',
        side_effect: 'unknown',
        arguments: [
          { path: 'query', binding: { kind: 'template', template: '{{var_1}} latest release', slots: { var_1: { kind: 'input', name: 'var_1' } } } },
          { path: 'max_results', binding: { kind: 'constant', value: 5, pinned: false } },
        ],
        preconditions: [],
      },
    ]);
    expect(document.variables_schema).toEqual({
      type: 'object',
      properties: { var_1: { type: 'string', description: 'Project', examples: ['fastapi'] } },
      required: ['var_1'],
      additionalProperties: false,
    });
    expect(document.tools).toEqual([]);
  });

  it.each([
    ['future-version.json', 'version', 'newer than this Forge reads'],
    ['missing-version.json', 'version', 'missing or not a whole number'],
    ['undeclared-variable.json', 'steps[0].arguments[0]', 'uses the variable "subject", which variables_schema does not declare'],
    ['forward-reference.json', 'steps[0].arguments[2]', 'takes a value from step 0, which does not run before it'],
    ['no-steps.json', 'steps', 'expected array to have >=1 items'],
    ['prototype-path.json', 'steps[3].arguments[0]', 'naming __proto__, constructor or prototype'],
    ['prototype-condition.json', 'selections[0]', 'naming __proto__, constructor or prototype'],
    ['unknown-selection.json', 'steps[2].arguments[0]', 'uses the selection "missing", which the document does not define'],
    ['list-from-one.json', 'steps[3].arguments[2]', 'takes a list from the selection "item", which chooses one entry'],
  ])('refuses %s, naming where and why', (file, location, message) => {
    const error = refusal(corpus(file));
    expect(error.location).toBe(location);
    expect(error.message).toContain(message);
  });

  it('refuses variable names that reach a prototype', () => {
    const document = corpus('v2-current.json') as { variables_schema: { properties: Record<string, unknown>; required: string[] } };
    const error = refusal({ ...document, variables_schema: { ...document.variables_schema, properties: { ...document.variables_schema.properties, constructor: { type: 'string', description: '', examples: ['x'] } } } });
    expect(error.location).toBe('variables_schema.properties.constructor');
  });

  it('refuses a file that is not JSON at all before it reaches the parser', () => {
    expect(() => JSON.parse(readFileSync(new URL('./corpus/not-json.json', import.meta.url), 'utf8'))).toThrow(SyntaxError);
    expect(refusal('a string').location).toBe('(document)');
    expect(refusal([]).location).toBe('(document)');
  });
});
