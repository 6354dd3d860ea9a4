import { describe, expect, it } from 'vitest';
import { ConfigurationError, ModelNotConfiguredError } from '../core/index.js';
import { CostMeter } from './cost-meter.js';
import { parseModelSlug } from './model-slug.js';
import { costOf } from './pricing.js';
import { NO_MODEL_HELP, defaultModelSlug, resolveModel } from './resolve-model.js';

describe('model slugs', () => {
  it('parses every provider form', () => {
    expect(parseModelSlug('openai:gpt-4.1-mini')).toMatchObject({ provider: 'openai', modelId: 'gpt-4.1-mini' });
    expect(parseModelSlug('openrouter:meta-llama/llama-3.3-70b-instruct')).toMatchObject({ provider: 'openrouter', modelId: 'meta-llama/llama-3.3-70b-instruct' });
    expect(parseModelSlug('openai-compatible:qwen@http://127.0.0.1:8000/v1')).toMatchObject({ provider: 'openai-compatible', modelId: 'qwen', baseUrl: 'http://127.0.0.1:8000/v1' });
  });

  it('rejects malformed slugs with the accepted forms', () => {
    for (const bad of ['gpt-4', 'cohere:command', 'openai:', ':x']) {
      expect(() => parseModelSlug(bad, 'FORGE_MODEL')).toThrow(ConfigurationError);
    }
    try {
      parseModelSlug('gpt-4', 'FORGE_MODEL');
    } catch (error) {
      expect((error as ConfigurationError).hint).toContain('openai:gpt-4.1-mini');
    }
  });
});

describe('model resolution', () => {
  it('explains in one screen how to configure a model when nothing is set', () => {
    expect(() => defaultModelSlug({})).toThrow(ModelNotConfiguredError);
    expect(NO_MODEL_HELP.split('\n').length).toBeLessThan(25);
    expect(NO_MODEL_HELP).toContain('OPENAI_API_KEY');
    expect(NO_MODEL_HELP).toContain('ollama');
  });

  it('names, for each key, the model that key alone chooses (stated one way)', () => {
    for (const [variable, provider] of [['OPENAI_API_KEY', 'openai'], ['ANTHROPIC_API_KEY', 'anthropic'], ['OPENROUTER_API_KEY', 'openrouter']] as const) {
      const chosen = defaultModelSlug({ [variable]: 'k' });
      expect(chosen.startsWith(`${provider}:`)).toBe(true);
      expect(NO_MODEL_HELP).toMatch(new RegExp(`export ${variable}=\\S+ +# uses ${chosen.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\n`));
    }
  });

  it('picks FORGE_MODEL, then the first vendor with a key', () => {
    expect(defaultModelSlug({ FORGE_MODEL: 'ollama:llama3.2', OPENAI_API_KEY: 'k' })).toBe('ollama:llama3.2');
    expect(defaultModelSlug({ ANTHROPIC_API_KEY: 'k' })).toBe('anthropic:claude-sonnet-4-6');
    expect(defaultModelSlug({ OPENAI_API_KEY: 'k' }, 'anthropic:claude-haiku-4-5')).toBe('anthropic:claude-haiku-4-5');
  });

  it('names the missing key of a hosted model', () => {
    expect(() => resolveModel('anthropic:claude-sonnet-4-6', {})).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => resolveModel('openai-compatible:qwen', {})).toThrow(/base URL/);
    expect(() => resolveModel('local:/models/x.gguf', {})).toThrow(/not available/);
  });

  it('resolves each provider to a model with the right identity', () => {
    expect(resolveModel('openai:gpt-4.1-mini', { OPENAI_API_KEY: 'k' }).model.modelId).toBe('gpt-4.1-mini');
    expect(resolveModel('ollama:llama3.2', {}).model.provider).toContain('ollama');
    expect(resolveModel('openrouter:x/y', { OPENROUTER_API_KEY: 'k' }).model.provider).toContain('openrouter');
  });
});

describe('cost meter', () => {
  it('prices known models and never invents a price', () => {
    expect(costOf('openai:gpt-4.1-mini', 1_000_000, 1_000_000)).toBeCloseTo(2.0);
    expect(costOf('anthropic:claude-sonnet-4-5-20250929', 1_000_000, 0)).toBeCloseTo(3);
    expect(costOf('openai:some-future-model', 100, 100)).toBeNull();
    expect(costOf('ollama:llama3.2', 100, 100)).toBe(0);
  });

  it('keeps totals and makes the total unknown once any call is unknown', () => {
    const meter = new CostMeter('r');
    meter.record({ model: 'openai:gpt-4.1-mini', purpose: 'p', inputTokens: 1000, outputTokens: 100, latencyMs: 1, inputHash: 'h' });
    expect(meter.totals()).toMatchObject({ llmCalls: 1, tokens: { input: 1000, output: 100 } });
    expect(meter.totals().costUsd).toBeCloseTo(0.00056);
    const record = meter.record({ model: 'openai-compatible:mystery', purpose: 'p', inputTokens: 10, outputTokens: 1, latencyMs: 1, inputHash: 'h' });
    expect(record.costUsd).toBeNull();
    expect(meter.totals()).toMatchObject({ llmCalls: 2, tokens: { input: 1010, output: 101 }, costUsd: null });
  });
});
