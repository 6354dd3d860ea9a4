import type { ToolContext } from '../../core/index.js';
import type { SearchProviderName } from './search-config.js';

export interface SearchRequest {
  readonly query: string;
  readonly maxResults: number;
}

/** One result as every provider is normalized to. */
export interface SearchHit {
  readonly url: string;
  readonly title: string;
  readonly snippet: string;
}

/**
 * A web search backend. Implementations reach the network only through `context.fetch`, return at most
 * `maxResults` hits in the provider's order, and never put their API key into an error or a hit.
 */
export interface SearchProvider {
  readonly name: SearchProviderName;
  search(request: SearchRequest, context: ToolContext): Promise<SearchHit[]>;
}
