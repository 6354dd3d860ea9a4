import { z } from 'zod';
import { endpointUrl, readProviderJson } from './provider-response.js';
import type { SearchProvider } from './search-provider.js';

const searxngResponseSchema = z.looseObject({
  results: z.array(z.looseObject({ url: z.string(), title: z.string().optional(), content: z.string().optional() })),
});

/** SearXNG's JSON API: `GET {base}/search?q=…&format=json`. SearXNG has no result count; the list is cut here. */
export function createSearxngProvider(baseUrl: string): SearchProvider {
  return {
    name: 'searxng',
    async search(request, context) {
      const url = endpointUrl(baseUrl, '/search');
      url.searchParams.set('q', request.query);
      url.searchParams.set('format', 'json');
      const response = await context.fetch(url.href, { headers: { accept: 'application/json' }, signal: context.signal });
      const body = readProviderJson(response, 'SearXNG', searxngResponseSchema, [], {
        403: 'SearXNG refuses the JSON format unless it is enabled: add "json" to search.formats in its settings.yml',
      });
      return body.results.slice(0, request.maxResults).map((result) => ({ url: result.url, title: result.title ?? '', snippet: result.content ?? '' }));
    },
  };
}
