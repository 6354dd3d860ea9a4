import { z } from 'zod';
import { defineTool, type Tool } from '../../core/index.js';
import type { SearchConfig, SearchProviderName } from './search-config.js';
import { translateQuery, type TranslationStatus } from './query-translation.js';
import { selectSearchProvider } from './select-search-provider.js';

const webSearchInputSchema = z.object({
  query: z.string().trim().min(1).max(400).describe('What to search the web for, in any language.'),
  max_results: z.number().int().min(1).max(20).default(5).describe('How many results to return (1-20, default 5).'),
});

export interface WebSearchResult {
  /** 1 for the provider's top result. */
  readonly rank: number;
  readonly url: string;
  readonly title: string;
  readonly snippet: string;
}

/**
 * What `web_search` returns. `query` is what was asked; `translated_query` is the English query that
 * was searched instead, when there was one; `note` explains a non-English query searched as written.
 */
export interface WebSearchOutput {
  readonly query: string;
  readonly translated_query: string | null;
  readonly translation: TranslationStatus;
  readonly note?: string;
  readonly provider: SearchProviderName;
  readonly results: readonly WebSearchResult[];
}

/**
 * `web_search({query, max_results?})` over the configured provider. The provider is checked before
 * any translation, so a missing configuration costs no model call.
 */
export function createWebSearchTool(config: SearchConfig): Tool<z.infer<typeof webSearchInputSchema>, WebSearchOutput> {
  return defineTool({
    name: 'web_search',
    description:
      'Search the web and get a ranked list of results (url, title, snippet). Non-English queries are translated to English first when a utility model is available. Read a result with read_url.',
    inputSchema: webSearchInputSchema,
    risk: 'low',
    sideEffect: 'read',
    external: true,
    async execute(input, context): Promise<WebSearchOutput> {
      const provider = selectSearchProvider(config);
      const translation = await translateQuery(input.query, context.utilityModel, context.signal);
      const hits = await provider.search({ query: translation.searchQuery, maxResults: input.max_results }, context);
      return {
        query: input.query,
        translated_query: translation.translatedQuery,
        translation: translation.status,
        ...(translation.note === undefined ? {} : { note: translation.note }),
        provider: provider.name,
        results: hits.map((hit, index) => ({ rank: index + 1, url: hit.url, title: hit.title, snippet: hit.snippet })),
      };
    },
  });
}
