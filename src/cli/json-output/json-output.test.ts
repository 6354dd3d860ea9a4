import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, describeError } from '../../core/index.js';
import { FALLBACK_HINT, commandOutputs, errorDocument, errorOutputSchema, jsonSchemaDocuments, presentJson } from './index.js';

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

  it("rounds the figures the command's schema declares (dollars to 1e-6, ms to 0.1, rates to 1e-4) at any depth, and nothing else", () => {
    const output = {
      run_id: 'r1',
      status: 'completed',
      halt_reason: 'final_answer',
      answer: 'ok',
      llm_calls: 2,
      tokens: { input: 10, output: 2 },
      cost_usd: 0.00021280000000000002,
      cost_usd_known: 0.00021280000000000002,
      unpriced_calls: 0,
      error: null,
      duration_ms: 517.954011,
      steps: [{ call_id: 'c1', iteration: 1, tool: 'quote', input: { price_usd: 0.1 + 0.2, wait_ms: 1.23456 }, ok: true, output: '0.30000000000000004', error: null, duration_ms: 1.1508120000000304 }],
      warnings: [],
      conversation_id: 'c',
      log_file: 'run.jsonl',
    };
    expect(presentJson(output, commandOutputs['run'])).toEqual({
      ...output,
      cost_usd: 0.000213,
      cost_usd_known: 0.000213,
      duration_ms: 518,
      // The tool's input is data: its numbers are printed as they came, whatever their keys.
      steps: [{ ...output.steps[0], duration_ms: 1.2 }],
    });
    const stats = presentJson(
      { files: [], runs: 1, llm_calls: 1, tokens: { input: 1, output: 1 }, cost_usd: 0.0000004, cost_usd_known: 0.0000004, unpriced_calls: 0, halts_by_reason: {}, tool_calls: 0, tool_errors: 0, per_model: { 'openai:gpt-4.1-mini': { llm_calls: 1, tokens: { input: 1, output: 1 }, cost_usd: 0.00020960000000000003, cost_usd_known: 0.00020960000000000003, unpriced_calls: 0 } }, synthesis: { drafted: 3, promoted: 1, failed: 0, caught: 2, catch_rate: 2 / 3, tool_uses: 0, reuse_ratio: null, per_tool: {} }, tools: [{ tool: 'web_search', calls: 2, failures: 0, cache_hits: 1, p50_ms: 12.3456, p95_ms: null, bytes_in: 20, bytes_out: 300 }], errors: [] },
      commandOutputs['stats'],
    ) as { cost_usd: number; per_model: Record<string, { cost_usd: number }>; synthesis: { catch_rate: number }; tools: { p50_ms: number }[] };
    expect([stats.cost_usd, stats.per_model['openai:gpt-4.1-mini']!.cost_usd, stats.synthesis.catch_rate, stats.tools[0]!.p50_ms]).toEqual([0, 0.00021, 0.6667, 12.3]);
    // Without a schema (a document a command writes as data, such as an export) nothing is rounded.
    expect(presentJson({ cost_usd: 0.1 + 0.2 })).toEqual({ cost_usd: 0.1 + 0.2 });
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
