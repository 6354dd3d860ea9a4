import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SkillFormatError } from './skill-errors.js';
import { SKILL_FORMAT_VERSION, parseSkillDocument } from './skill-document.js';

function corpus(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./document-corpus/${name}`, import.meta.url), 'utf8')) as unknown;
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
    const document = parseSkillDocument(corpus('v1-current.json'));
    expect(document).toEqual(corpus('v1-current.json'));
  });

  it('upgrades a version 0 (seed format) skill: {{ var }} placeholders become template bindings, examples are kept', () => {
    const document = parseSkillDocument(corpus('v0-legacy.json'));
    expect(document.version).toBe(SKILL_FORMAT_VERSION);
    expect(document.name).toBe('recipe-release-notes');
    expect(document.steps).toEqual([
      {
        tool: 'web_search',
        arguments: [
          { path: 'query', binding: { kind: 'template', template: '{{var_1}} latest release' } },
          { path: 'max_results', binding: { kind: 'constant', value: 5 } },
        ],
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
  ])('refuses %s, naming where and why', (file, location, message) => {
    const error = refusal(corpus(file));
    expect(error.location).toBe(location);
    expect(error.message).toContain(message);
  });

  it('refuses a file that is not JSON at all before it reaches the parser', () => {
    expect(() => JSON.parse(readFileSync(new URL('./document-corpus/not-json.json', import.meta.url), 'utf8'))).toThrow(SyntaxError);
    expect(refusal('a string').location).toBe('(document)');
    expect(refusal([]).location).toBe('(document)');
  });
});
