import { describe, expect, it } from 'vitest';
import { ForgeError, NetworkBlockedError, type GuardedFetch } from '../../core/index.js';
import { FIXTURE_TEXT } from '../../../test/fixtures/fixture-web.js';
import { FIXTURE_TAVILY_API_KEY } from '../../../test/fixtures/search-server.js';
import { callTool, createToolContext } from '../../../test/fixtures/tool-context.js';
import { createGuardedFetch } from '../../security/index.js';
import { useGuardedWeb } from '../../../test/fixtures/guarded-web.js';
import { httpRequestTool, type HttpRequestOutput } from './http-request-tool.js';

const net = useGuardedWeb();

async function httpRequest(input: Record<string, unknown>, guardedFetch: GuardedFetch = net.fetch): Promise<HttpRequestOutput> {
  return (await callTool(httpRequestTool, input, createToolContext({ fetch: guardedFetch }))) as HttpRequestOutput;
}

describe('http_request', () => {
  it('returns status, final URL, headers and body text', async () => {
    const response = await httpRequest({ method: 'GET', url: net.web.pages.json });
    expect(response.status).toBe(200);
    expect(response.url).toBe(net.web.pages.json);
    expect(response.headers['content-type']).toBe('application/json');
    expect((JSON.parse(response.body) as { latest: string }).latest).toBe(FIXTURE_TEXT.jsonLatestVersion);
    expect(response.truncated).toBe(false);
  });

  it('sends method, headers and body, and returns error statuses as answers', async () => {
    const accepted = await httpRequest({
      method: 'POST',
      url: `${net.search.baseUrl}/search`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: FIXTURE_TAVILY_API_KEY, query: 'forge caching', max_results: 2 }),
    });
    expect(accepted.status).toBe(200);
    expect((JSON.parse(accepted.body) as { results: unknown[] }).results).toHaveLength(2);
    expect(net.search.requests[0]?.body).toEqual({ api_key: FIXTURE_TAVILY_API_KEY, query: 'forge caching', max_results: 2 });
    expect(net.search.requests[0]?.headers['content-type']).toBe('application/json');

    const refused = await httpRequest({ method: 'POST', url: `${net.search.baseUrl}/search`, body: '{"query":"x"}' });
    expect(refused.status).toBe(401);
    expect(refused.body).toContain('Unauthorized');
  });

  it('follows redirects and reports where it ended', async () => {
    const response = await httpRequest({ method: 'GET', url: net.web.pages.crossHostRedirect });
    expect(response.url).toBe(net.web.pages.article);
    expect(response.body).toContain(FIXTURE_TEXT.articleSentence);
  });

  it('describes a binary body and returns an empty body for HEAD', async () => {
    expect((await httpRequest({ method: 'GET', url: net.web.pages.pdf })).body).toMatch(/^Binary content \(application\/pdf, \d+ bytes\)/);
    const head = await httpRequest({ method: 'HEAD', url: net.web.pages.article });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('is refused by the guard for a target outside the allow list', async () => {
    const error = await httpRequest({ method: 'GET', url: `${net.search.baseUrl}/search?q=x&format=json` }, createGuardedFetch()).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ForgeError.isInstance(error) && error instanceof NetworkBlockedError).toBe(true);
    expect(net.search.requests).toEqual([]);
  });

  it('rejects an unknown method before sending anything', () => {
    expect(httpRequestTool.inputSchema.safeParse({ method: 'CONNECT', url: net.web.pages.article }).success).toBe(false);
  });
});
