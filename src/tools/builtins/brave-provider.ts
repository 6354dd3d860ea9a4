import { z } from 'zod';
import { endpointUrl, readProviderJson } from './provider-response.js';
import type { SearchProvider } from './search-provider.js';

export const defaultBraveBaseUrl = 'https://api.search.brave.com';

const braveResponseSchema = z.looseObject({
  web: z
    .looseObject({
      results: z.array(z.looseObject({ url: z.string(), title: z.string().optional(), description: z.string().optional() })),
    })
    .optional(),
});

/** Brave's Web Search API: `GET {base}/res/v1/web/search?q=…&count=…` with `X-Subscription-Token`. */
export function createBraveProvider(apiKey: string, baseUrl: string = defaultBraveBaseUrl): SearchProvider {
  return {
    name: 'brave',
    async search(request, context) {
      const url = endpointUrl(baseUrl, '/res/v1/web/search');
      url.searchParams.set('q', request.query);
      url.searchParams.set('count', String(request.maxResults));
      const response = await context.fetch(url.href, {
        headers: { accept: 'application/json', 'x-subscription-token': apiKey },
        signal: context.signal,
      });
      const body = readProviderJson(response, 'Brave Search', braveResponseSchema, [apiKey], { 401: 'Check BRAVE_API_KEY', 429: 'The Brave plan\'s rate limit was hit; wait and retry' });
      return (body.web?.results ?? []).slice(0, request.maxResults).map((result) => ({
        url: result.url,
        title: plainText(result.title ?? ''),
        snippet: plainText(result.description ?? ''),
      }));
    },
  };
}

const entities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

/** Brave marks matches with <strong> and escapes entities; models read plain text better. */
function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_match, name: string) => entities[name] ?? '');
}
