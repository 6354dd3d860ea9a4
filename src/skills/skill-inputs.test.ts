import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../core/index.js';
import { parseSkillDocument } from './document/parse-skill-document.js';
import { SkillInputError } from './skill-errors.js';
import { parseInputPairs, validateSkillInputs } from './skill-inputs.js';

const skill = parseSkillDocument(JSON.parse(readFileSync(new URL('./document/corpus/v1-legacy.json', import.meta.url), 'utf8')));

function inputError(raw: Record<string, unknown>): SkillInputError {
  try {
    validateSkillInputs(skill, raw);
  } catch (error) {
    if (error instanceof SkillInputError) return error;
    throw error;
  }
  throw new Error('the inputs were accepted');
}

describe('skill inputs', () => {
  it('converts command-line text to the declared types', () => {
    expect(validateSkillInputs(skill, parseInputPairs(['topic=lumen', 'limit=3']))).toEqual({ variables: { topic: 'lumen', limit: 3 }, overrides: {} });
    expect(parseInputPairs(['query=a=b'])).toEqual({ query: 'a=b' });
    expect(() => parseInputPairs(['topic'])).toThrow(ConfigurationError);
  });

  it('names the variable: missing, wrong type, unknown', () => {
    expect(inputError({ topic: 'lumen' })).toMatchObject({ variable: 'limit', message: 'Input "limit": is required but missing.' });
    expect(inputError({ topic: 'lumen', limit: 'three' })).toMatchObject({ variable: 'limit', message: 'Input "limit": expected a whole number, got "three".' });
    expect(inputError({ topic: 'lumen', limit: '2.5' })).toMatchObject({ variable: 'limit' });
    const unknown = inputError({ topic: 'lumen', limit: '3', colour: 'red' });
    expect(unknown).toMatchObject({ variable: 'colour', message: 'Input "colour": is not an input of skill "top-results".' });
    expect(unknown.hint).toBe('Inputs of top-results: topic (string, required, e.g. "lumen"); limit (integer, required, e.g. 3).');
  });
});
