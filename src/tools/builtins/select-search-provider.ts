import { ConfigurationError } from '../../core/index.js';
import { createBraveProvider } from './brave-provider.js';
import type { SearchConfig } from './search-config.js';
import type { SearchProvider } from './search-provider.js';
import { createSearxngProvider } from './searxng-provider.js';
import { createTavilyProvider } from './tavily-provider.js';

const setupHint =
  'Set FORGE_SEARCH=searxng with FORGE_SEARXNG_URL=<base URL of a SearXNG whose JSON format is enabled> (a SearXNG on your own machine or network must also be listed in FORGE_ALLOW_HOSTS as host:port), or FORGE_SEARCH=tavily with TAVILY_API_KEY, or FORGE_SEARCH=brave with BRAVE_API_KEY.';

/** The provider the settings name, or a `ConfigurationError` saying which variables to set. */
export function selectSearchProvider(config: SearchConfig): SearchProvider {
  switch (config.provider) {
    case undefined:
      throw new ConfigurationError('FORGE_SEARCH', 'web search is not configured: no search provider is set.', setupHint);
    case 'searxng':
      if (config.searxngUrl === undefined) {
        throw new ConfigurationError('FORGE_SEARXNG_URL', 'the search provider is searxng but no SearXNG URL is set.', setupHint);
      }
      return createSearxngProvider(config.searxngUrl);
    case 'tavily':
      if (config.tavilyApiKey === undefined) {
        throw new ConfigurationError('TAVILY_API_KEY', 'the search provider is tavily but no Tavily API key is set.', setupHint);
      }
      return createTavilyProvider(config.tavilyApiKey, config.tavilyBaseUrl);
    case 'brave':
      if (config.braveApiKey === undefined) {
        throw new ConfigurationError('BRAVE_API_KEY', 'the search provider is brave but no Brave Search API key is set.', setupHint);
      }
      return createBraveProvider(config.braveApiKey, config.braveBaseUrl);
  }
}
