import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ConfigurationError, ModelNotConfiguredError, type CredentialProvider } from '../core/index.js';
import { createCassettePlayer, createCassetteRecorder, readCassette } from './cassette-model.js';
import { CREDENTIAL_VARIABLES, modelKeysFromEnvironment, type ModelKeys } from './model-keys.js';
import { parseModelSlug } from './model-slug.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A model ready to call, with the slug it was resolved from (used for pricing and logs). */
export interface ResolvedModel {
  readonly slug: string;
  /** `ModelSlug['provider']` for resolved slugs; other values for models built in code (e.g. the demo's scripted model). */
  readonly provider: string;
  readonly model: LanguageModelV3;
  /**
   * The OpenAI-compatible server's base URL the model was resolved with (from the slug or
   * FORGE_OPENAI_COMPATIBLE_BASE_URL), without credentials: with `slug` it resolves the same model again
   * (see `modelSlugWithBaseUrl`). Absent for every other provider.
   */
  readonly baseUrl?: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A URL as it may be stored: user and password removed (a key goes in FORGE_OPENAI_COMPATIBLE_API_KEY). */
function withoutCredentials(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null || (parsed.username === '' && parsed.password === '')) return url;
  parsed.username = '';
  parsed.password = '';
  return trimSlash(parsed.href);
}

function requireKey(keys: ModelKeys, provider: CredentialProvider, slug: string): string {
  const key = nonEmpty(keys[provider]);
  if (key === undefined) {
    const variable = CREDENTIAL_VARIABLES[provider];
    throw new ModelNotConfiguredError(`The model ${slug} needs ${variable}, which is not set.`, `export ${variable}=… (or choose another model with --model / FORGE_MODEL).`);
  }
  return key;
}

/**
 * Resolves a slug to a model through the AI SDK provider boundary, honouring the vendors' own
 * variables: `OPENAI_BASE_URL` includes `/v1`; `ANTHROPIC_BASE_URL` is the host root, as in the
 * official SDKs. The keys are `keys` alone when given (see `readModelKeys`), else the environment's.
 */
export function resolveModel(slugText: string, env: Environment, variable = 'model', keys: ModelKeys = modelKeysFromEnvironment(env)): ResolvedModel {
  const slug = parseModelSlug(slugText, variable);
  switch (slug.provider) {
    case 'openai': {
      const provider = createOpenAI({ apiKey: requireKey(keys, 'openai', slug.text), baseURL: nonEmpty(env['OPENAI_BASE_URL']) });
      return { slug: slug.text, provider: slug.provider, model: provider.chat(slug.modelId) };
    }
    case 'anthropic': {
      const root = nonEmpty(env['ANTHROPIC_BASE_URL']);
      const provider = createAnthropic({
        apiKey: requireKey(keys, 'anthropic', slug.text),
        baseURL: root === undefined ? undefined : `${trimSlash(root)}/v1`,
      });
      return { slug: slug.text, provider: slug.provider, model: provider(slug.modelId) };
    }
    case 'openrouter': {
      const provider = createOpenAICompatible({
        name: 'openrouter',
        apiKey: requireKey(keys, 'openrouter', slug.text),
        baseURL: trimSlash(nonEmpty(env['OPENROUTER_BASE_URL']) ?? 'https://openrouter.ai/api/v1'),
        includeUsage: true,
      });
      return { slug: slug.text, provider: slug.provider, model: provider.chatModel(slug.modelId) };
    }
    case 'ollama': {
      const host = nonEmpty(env['OLLAMA_HOST']);
      const baseURL = nonEmpty(env['OLLAMA_BASE_URL']) ?? (host === undefined ? 'http://127.0.0.1:11434/v1' : `${trimSlash(host.startsWith('http') ? host : `http://${host}`)}/v1`);
      const provider = createOpenAICompatible({ name: 'ollama', baseURL: trimSlash(baseURL), includeUsage: true });
      return { slug: slug.text, provider: slug.provider, model: provider.chatModel(slug.modelId) };
    }
    case 'openai-compatible': {
      const baseURL = slug.baseUrl ?? nonEmpty(env['FORGE_OPENAI_COMPATIBLE_BASE_URL']);
      if (baseURL === undefined) {
        throw new ModelNotConfiguredError(
          `The model ${slug.text} needs a base URL.`,
          'Write openai-compatible:<model>@http://host:port/v1, or export FORGE_OPENAI_COMPATIBLE_BASE_URL=http://host:port/v1 (and FORGE_OPENAI_COMPATIBLE_API_KEY if the server wants one).',
        );
      }
      const apiKey = nonEmpty(keys['openai-compatible']);
      const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: trimSlash(baseURL), includeUsage: true, ...(apiKey === undefined ? {} : { apiKey }) });
      return { slug: slug.text, provider: slug.provider, model: provider.chatModel(slug.modelId), baseUrl: withoutCredentials(trimSlash(baseURL)) };
    }
    case 'cassette': {
      // cassette:<file> plays a recorded session back; with FORGE_CASSETTE_RECORD=<slug> it records one from that model.
      const recordFrom = nonEmpty(env['FORGE_CASSETTE_RECORD']);
      if (recordFrom !== undefined) {
        const inner = resolveModel(recordFrom, env, 'FORGE_CASSETTE_RECORD', keys);
        return { slug: slug.text, provider: slug.provider, model: createCassetteRecorder(inner.model, inner.slug, slug.modelId) };
      }
      return { slug: slug.text, provider: slug.provider, model: createCassettePlayer(readCassette(slug.modelId)) };
    }
    case 'local':
      throw new ConfigurationError(
        variable,
        'On-device models (local:<path.gguf>) are not available in this build yet.',
        'Use a local server instead: run Ollama and choose ollama:<name>, or any OpenAI-compatible server (llama.cpp, vLLM) with openai-compatible:<model>@http://host:port/v1.',
      );
  }
}

/** The model each vendor's key chooses when no slug is given, in the order they are tried. */
const MODELS_BY_KEY: readonly (readonly [CredentialProvider, string])[] = [
  ['openai', 'openai:gpt-4.1-mini'],
  ['anthropic', 'anthropic:claude-sonnet-4-6'],
  ['openrouter', 'openrouter:openai/gpt-4.1-mini'],
];

const KEY_EXAMPLES: Readonly<Partial<Record<CredentialProvider, string>>> = { openai: 'sk-...', anthropic: 'sk-ant-...', openrouter: 'sk-or-...' };

/** The explanation shown when no model is configured at all: one screen, no stack trace. Each key's line names the model that key chooses (one source: MODELS_BY_KEY). */
export const NO_MODEL_HELP = `Pick one of these and run your command again:

  Hosted (set a key):
${MODELS_BY_KEY.map(([provider, slug]) => `    ${`export ${CREDENTIAL_VARIABLES[provider]}=${KEY_EXAMPLES[provider] ?? '...'}`.padEnd(39)} # uses ${slug}`).join('\n')}

  Local server (no key):
    ollama serve && ollama pull llama3.2
    export FORGE_MODEL=ollama:llama3.2
    # any OpenAI-compatible server (llama.cpp, vLLM, LM Studio):
    export FORGE_MODEL=openai-compatible:<model>@http://127.0.0.1:8000/v1

  Or pass --model <provider:model> to this command.
  OPENAI_BASE_URL (with /v1) and ANTHROPIC_BASE_URL (host root) point the vendors' clients elsewhere.

Try Forge without any model: forge demo`;

/** The model slug to use: explicit choice, then FORGE_MODEL, then the first vendor with a key (in `keys`, else the environment). */
export function defaultModelSlug(env: Environment, explicit?: string, keys: ModelKeys = modelKeysFromEnvironment(env)): string {
  const chosen = nonEmpty(explicit) ?? nonEmpty(env['FORGE_MODEL']);
  if (chosen !== undefined) return chosen;
  const keyed = MODELS_BY_KEY.find(([provider]) => nonEmpty(keys[provider]) !== undefined);
  if (keyed !== undefined) return keyed[1];
  throw new ModelNotConfiguredError('No model is configured.', NO_MODEL_HELP);
}
