import { ConfigurationError } from '../core/index.js';

export const MODEL_PROVIDERS = ['openai', 'anthropic', 'openrouter', 'ollama', 'openai-compatible', 'local', 'cassette'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A parsed model slug such as `openai:gpt-4.1-mini` or `openai-compatible:llama3@http://127.0.0.1:8080/v1`. */
export interface ModelSlug {
  readonly provider: ModelProvider;
  readonly modelId: string;
  /** Only for `openai-compatible:<model>@<baseURL>`. */
  readonly baseUrl: string | undefined;
  /** The slug as written, without any inline base URL credentials. */
  readonly text: string;
}

function isProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

/** Parses `provider:model`; throws a ConfigurationError naming the accepted forms. */
export function parseModelSlug(slug: string, variable = 'model'): ModelSlug {
  const trimmed = slug.trim();
  const separator = trimmed.indexOf(':');
  const provider = separator > 0 ? trimmed.slice(0, separator) : '';
  const rest = separator > 0 ? trimmed.slice(separator + 1) : '';
  if (!isProvider(provider) || rest.length === 0) {
    throw new ConfigurationError(
      variable,
      `"${slug}" is not a model slug.`,
      `Write provider:model, with provider one of ${MODEL_PROVIDERS.join(', ')} — e.g. openai:gpt-4.1-mini, anthropic:claude-sonnet-4-6, openrouter:meta-llama/llama-3.3-70b-instruct, ollama:llama3.2, openai-compatible:my-model@http://127.0.0.1:8000/v1.`,
    );
  }
  if (provider === 'openai-compatible') {
    const at = rest.indexOf('@');
    if (at > 0) {
      const baseUrl = rest.slice(at + 1);
      if (!/^https?:\/\//.test(baseUrl)) {
        throw new ConfigurationError(variable, `"${baseUrl}" is not an http(s) base URL.`, 'Write openai-compatible:<model>@http://host:port/v1.');
      }
      return { provider, modelId: rest.slice(0, at), baseUrl, text: `${provider}:${rest.slice(0, at)}` };
    }
  }
  return { provider, modelId: rest, baseUrl: undefined, text: `${provider}:${rest}` };
}

/** The slug that resolves a model again with its OpenAI-compatible base URL (`openai-compatible:<model>@<url>`); `slug` alone when there is none. */
export function modelSlugWithBaseUrl(slug: string, baseUrl: string | null | undefined): string {
  return baseUrl === null || baseUrl === undefined ? slug : `${slug}@${baseUrl}`;
}
