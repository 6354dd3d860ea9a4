import { ConfigurationError, type AnyTool } from '../../core/index.js';
import { httpRequestTool } from './http-request-tool.js';
import { readUrlTool } from './read-url-tool.js';
import { searchConfigSchema, type SearchConfig } from './search-config.js';
import { createWebSearchTool } from './web-search-tool.js';

export type { HttpRequestOutput } from './http-request-tool.js';
export type { TranslationStatus } from './query-translation.js';
export type { ReadUrlOutput } from './read-url-tool.js';
export { searchConfigFromEnv, searchConfigSchema, searchProviderNameSchema, type SearchConfig, type SearchProviderName } from './search-config.js';
export type { WebSearchOutput, WebSearchResult } from './web-search-tool.js';
export { selectSearchProvider } from './select-search-provider.js';
export type { SearchHit, SearchProvider } from './search-provider.js';

/**
 * The built-in tools: `web_search`, `read_url` and `http_request`, configured with the search settings
 * (usually `searchConfigFromEnv(process.env)`). They reach the network only through `context.fetch`,
 * so the SSRF guard the caller puts there decides what they can reach. Throws `ConfigurationError`
 * when the settings are malformed; a missing provider is fine (`web_search` then says what to set).
 */
export function createBuiltinTools(config: SearchConfig): AnyTool[] {
  const search = searchConfigSchema.safeParse(config);
  if (!search.success) {
    const issue = search.error.issues[0];
    throw new ConfigurationError(`search settings (${issue?.path.join('.') ?? 'unknown field'})`, issue?.message ?? 'invalid value');
  }
  return [createWebSearchTool(search.data), readUrlTool, httpRequestTool];
}
