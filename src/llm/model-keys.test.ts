import { describe, expect, it } from 'vitest';
import { CREDENTIAL_PROVIDERS, type CredentialProvider } from '../core/index.js';
import { EnvironmentCredentials, modelKeysFromEnvironment, readModelKeys } from './model-keys.js';
import { defaultModelSlug, resolveModel } from './resolve-model.js';

describe('model keys', () => {
  it('reads the vendors\' own variables from the environment, trimmed, and nothing for a blank one', async () => {
    const env = { OPENAI_API_KEY: '  sk-openai  ', ANTHROPIC_API_KEY: ' ', FORGE_OPENAI_COMPATIBLE_API_KEY: 'local-key' };
    const credentials = new EnvironmentCredentials(env);

    expect(await credentials.get('openai')).toBe('sk-openai');
    expect(await credentials.get('anthropic')).toBeUndefined();
    expect(await readModelKeys(credentials)).toEqual({ openai: 'sk-openai', 'openai-compatible': 'local-key' });
    expect(modelKeysFromEnvironment(env)).toEqual({ openai: 'sk-openai', 'openai-compatible': 'local-key' });
  });

  it('asks the credentials once for each vendor', async () => {
    const asked: CredentialProvider[] = [];
    const keys = await readModelKeys({
      async get(provider) {
        asked.push(provider);
        return provider === 'openrouter' ? 'sk-or-vault' : undefined;
      },
    });

    expect(keys).toEqual({ openrouter: 'sk-or-vault' });
    expect([...asked].sort()).toEqual([...CREDENTIAL_PROVIDERS].sort());
  });

  it('resolves and chooses models with the keys given alone, whatever the environment holds', () => {
    const env = { OPENAI_API_KEY: 'sk-env-openai' };

    expect(() => resolveModel('openai:gpt-4.1-mini', env, '--model', {})).toThrow(expect.objectContaining({ name: 'ModelNotConfiguredError', message: 'The model openai:gpt-4.1-mini needs OPENAI_API_KEY, which is not set.' }));
    expect(resolveModel('anthropic:claude-sonnet-4-6', env, '--model', { anthropic: 'sk-ant-vault' }).model.provider).toContain('anthropic');
    expect(defaultModelSlug(env, undefined, { anthropic: 'sk-ant-vault' })).toBe('anthropic:claude-sonnet-4-6');
    expect(() => defaultModelSlug(env, undefined, {})).toThrow(expect.objectContaining({ name: 'ModelNotConfiguredError' }));
    // Without keys, the environment's are used, as before.
    expect(defaultModelSlug(env)).toBe('openai:gpt-4.1-mini');
  });
});
