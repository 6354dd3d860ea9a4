import { z } from 'zod';
import { endpointUrl, readProviderJson } from './provider-response.js';
import type { SearchProvider } from './search-provider.js';

export const defaultTavilyBaseUrl = 'https://api.tavily.com';

const tavilyResponseSchema = z.looseObject({
  results: z.array(z.looseObject({ url: z.string(), title: z.string().optional(), content: z.string().optional() })),
});

/**
 * Tavily's search API: `POST {base}/search` with a JSON body. The key goes both in the body's
 * `api_key` (the original API) and as `Authorization: Bearer` (the current one), so either generation
 * of the service, or a compatible proxy, accepts it.
 */
export function createTavilyProvider(apiKey: string, baseUrl: string = defaultTavilyBaseUrl): SearchProvider {
  return {
    name: 'tavily',
    async search(request, context) {
      const response = await context.fetch(endpointUrl(baseUrl, '/search').href, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({
          api_key: apiKey,
          query: request.query,
          max_results: request.maxResults,
          search_depth: 'basic',
          include_answer: false,
          include_images: false,
          include_raw_content: false,
        }),
        signal: context.signal,
      });
      const body = readProviderJson(response, 'Tavily', tavilyResponseSchema, [apiKey], { 401: 'Check TAVILY_API_KEY' });
      return body.results.slice(0, request.maxResults).map((result) => ({ url: result.url, title: result.title ?? '', snippet: result.content ?? '' }));
    },
  };
}
