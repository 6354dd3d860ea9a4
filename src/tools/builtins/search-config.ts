import { z } from 'zod';
import { ConfigurationError } from '../../core/index.js';

export const searchProviderNameSchema = z.enum(['searxng', 'tavily', 'brave']);
export type SearchProviderName = z.infer<typeof searchProviderNameSchema>;

const httpUrl = z.url({ protocol: /^https?$/ });

/**
 * Web search settings. A provider without its URL or key is accepted here and reported when
 * `web_search` runs, so Forge starts (and every other tool works) without search configured.
 */
export const searchConfigSchema = z.object({
  provider: searchProviderNameSchema.optional(),
  /** Base URL of a SearXNG instance with the JSON format enabled. */
  searxngUrl: httpUrl.optional(),
  tavilyApiKey: z.string().min(1).optional(),
  /** Defaults to https://api.tavily.com. */
  tavilyBaseUrl: httpUrl.optional(),
  braveApiKey: z.string().min(1).optional(),
  /** Defaults to https://api.search.brave.com. */
  braveBaseUrl: httpUrl.optional(),
});
export type SearchConfig = z.infer<typeof searchConfigSchema>;

/**
 * Search settings from the environment: FORGE_SEARCH (searxng|tavily|brave), FORGE_SEARXNG_URL,
 * TAVILY_API_KEY, BRAVE_API_KEY, FORGE_TAVILY_BASE_URL, FORGE_BRAVE_BASE_URL. Without FORGE_SEARCH
 * the provider is inferred: searxng when FORGE_SEARXNG_URL is set, else tavily or brave when their
 * key is set. Empty values count as unset. Throws `ConfigurationError` for an unknown provider or a
 * malformed URL, never echoing a key.
 */
export function searchConfigFromEnv(env: Readonly<Record<string, string | undefined>>): SearchConfig {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const searxngUrl = readUrl('FORGE_SEARXNG_URL', read('FORGE_SEARXNG_URL'));
  const tavilyApiKey = read('TAVILY_API_KEY');
  const braveApiKey = read('BRAVE_API_KEY');
  const explicit = read('FORGE_SEARCH')?.toLowerCase();
  const parsedProvider = searchProviderNameSchema.safeParse(explicit);
  if (explicit !== undefined && !parsedProvider.success) {
    throw new ConfigurationError('FORGE_SEARCH', `"${explicit}" is not a search provider.`, 'Set FORGE_SEARCH to searxng, tavily or brave.');
  }
  const provider =
    parsedProvider.data ??
    (searxngUrl !== undefined ? 'searxng' : tavilyApiKey !== undefined ? 'tavily' : braveApiKey !== undefined ? 'brave' : undefined);
  const config = {
    provider,
    searxngUrl,
    tavilyApiKey,
    tavilyBaseUrl: readUrl('FORGE_TAVILY_BASE_URL', read('FORGE_TAVILY_BASE_URL')),
    braveApiKey,
    braveBaseUrl: readUrl('FORGE_BRAVE_BASE_URL', read('FORGE_BRAVE_BASE_URL')),
  };
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)) as SearchConfig;
}

function readUrl(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!httpUrl.safeParse(value).success) {
    throw new ConfigurationError(variable, `"${value}" is not an http(s) URL.`, `Set ${variable} to a base URL such as https://search.example.com.`);
  }
  return value;
}
