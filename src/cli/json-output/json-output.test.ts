import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, describeError } from '../../core/index.js';
import { FALLBACK_HINT, errorDocument, errorOutputSchema, jsonSchemaDocuments, presentJson } from './index.js';

const docs = fileURLToPath(new URL('../../../docs/json/', import.meta.url));

/** Every property name a JSON Schema declares, at any depth, with where it was found. */
function declaredNames(schema: unknown, at = '$'): { name: string; at: string }[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => declaredNames(item, `${at}[${index}]`));
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema as Record<string, unknown>).flatMap(([key, value]) => {
    if (key !== 'properties' || typeof value !== 'object' || value === null) return declaredNames(value, `${at}.${key}`);
    // `properties` maps names to schemas: the names are declared here, each value is a schema again.
    return Object.entries(value as Record<string, unknown>).flatMap(([name, property]) => [{ name, at }, ...declaredNames(property, `${at}.${name}`)]);
  });
}

describe('the JSON output convention', () => {
  it('docs/json holds exactly the schemas `npm run docs:json` generates (run it after changing an output schema)', async () => {
    const generated = jsonSchemaDocuments();
    const committed = (await readdir(docs)).filter((name) => name.endsWith('.schema.json')).sort();
    expect(committed).toEqual(Object.keys(generated).sort());
    for (const name of committed) expect(await readFile(`${docs}${name}`, 'utf8'), `docs/json/${name} is stale: run npm run docs:json`).toBe(generated[name]);
  });

  it('declares only snake_case keys, and no object that takes keys it does not declare', () => {
    // A skill document's variables_schema is itself a JSON Schema, whose keyword is camelCase by its own standard.
    const jsonSchemaKeywords = new Set(['additionalProperties']);
    for (const [file, text] of Object.entries(jsonSchemaDocuments())) {
      const schema = JSON.parse(text) as unknown;
      const names = declaredNames(schema).filter(({ name }) => !/^[a-z][a-z0-9_]*$/.test(name) && !jsonSchemaKeywords.has(name));
      expect(names, file).toEqual([]);
      expect(text, `${file}: every object is closed`).not.toContain('"additionalProperties": true');
    }
  });

  it('rounds dollars to 1e-6, milliseconds to 0.1 and rates to 1e-4 at any depth, leaving other numbers alone', () => {
    const presented = presentJson({
      cost_usd: 0.00021280000000000002,
      duration_ms: 517.954011,
      per_model: { 'openai:gpt-4.1-mini': { cost_usd: 0.00020960000000000003, llm_calls: 2 } },
      steps: [{ duration_ms: 1.1508120000000304, input: { price: 0.1 + 0.2, timeout_s: 1.23456789 } }],
      synthesis: { catch_rate: 2 / 3, reuse_ratio: null },
      tiny_usd: -0.0000001,
    });
    expect(presented).toEqual({
      cost_usd: 0.000213,
      duration_ms: 518,
      per_model: { 'openai:gpt-4.1-mini': { cost_usd: 0.00021, llm_calls: 2 } },
      steps: [{ duration_ms: 1.2, input: { price: 0.1 + 0.2, timeout_s: 1.23456789 } }],
      synthesis: { catch_rate: 0.6667, reuse_ratio: null },
      tiny_usd: 0,
    });
    expect(JSON.stringify(presentJson({ tokens: { input: 10 }, skipped: undefined, at: new Date(0) }))).toBe('{"tokens":{"input":10},"at":"1970-01-01T00:00:00.000Z"}');
  });

  it('prints every error with a name, a message and a hint, one of its own when it has none', () => {
    expect(errorDocument(describeError(new ConfigurationError('--limit', 'must be a positive whole number, got "x".')))).toEqual({
      error: { name: 'ConfigurationError', message: expect.stringContaining('--limit'), hint: expect.any(String) },
    });
    const unexpected = errorDocument(describeError(new TypeError('boom')));
    expect(unexpected).toEqual({ error: { name: 'TypeError', message: 'boom', hint: FALLBACK_HINT } });
    expect(errorOutputSchema.parse(unexpected)).toEqual(unexpected);
  });
});
