import { describe, expect, it } from 'vitest';
import { ConfigurationError, NetworkBlockedError, ToolExecutionError, type GuardedFetch, type UtilityModel } from '../../core/index.js';
import { FIXTURE_BRAVE_API_KEY, FIXTURE_TAVILY_API_KEY } from '../../../test/fixtures/search-server.js';
import { callTool, createScriptedUtilityModel, createToolContext, rejection } from '../../../test/fixtures/tool-context.js';
import { createGuardedFetch } from '../../security/index.js';
import { useGuardedWeb } from '../../../test/fixtures/guarded-web.js';
import { readUrlTool, type ReadUrlOutput } from './read-url-tool.js';
import type { SearchConfig } from './search-config.js';
import { createWebSearchTool, type WebSearchOutput } from './web-search-tool.js';

const net = useGuardedWeb();

async function webSearch(config: SearchConfig, input: Record<string, unknown>, options: { utilityModel?: UtilityModel; fetch?: GuardedFetch } = {}): Promise<WebSearchOutput> {
  const context = createToolContext({ fetch: options.fetch ?? net.fetch, ...(options.utilityModel === undefined ? {} : { utilityModel: options.utilityModel }) });
  return (await callTool(createWebSearchTool(config), input, context)) as WebSearchOutput;
}

const searxng = (): SearchConfig => ({ provider: 'searxng', searxngUrl: net.search.baseUrl });
const tavily = (apiKey = FIXTURE_TAVILY_API_KEY): SearchConfig => ({ provider: 'tavily', tavilyApiKey: apiKey, tavilyBaseUrl: net.search.baseUrl });
const brave = (apiKey = FIXTURE_BRAVE_API_KEY): SearchConfig => ({ provider: 'brave', braveApiKey: apiKey, braveBaseUrl: net.search.baseUrl });

describe('web_search providers', () => {
  it('SearXNG: asks GET /search?q=…&format=json and returns ranked results', async () => {
    const output = await webSearch(searxng(), { query: 'how does forge cache tool results', max_results: 3 });
    expect(output.provider).toBe('searxng');
    expect(output.query).toBe('how does forge cache tool results');
    expect(output.results).toEqual(
      net.web.searchResults('').slice(0, 3).map((result, index) => ({ rank: index + 1, url: result.url, title: result.title, snippet: result.snippet })),
    );
    expect(net.search.requests).toHaveLength(1);
    expect(net.search.requests[0]).toMatchObject({ provider: 'searxng', method: 'GET', path: '/search', query: 'how does forge cache tool results' });
  });

  it('Tavily: POSTs the key, query and max_results, and keeps the key out of the output', async () => {
    const output = await webSearch(tavily(), { query: 'forge caching guide', max_results: 4 });
    expect(output.provider).toBe('tavily');
    expect(output.results.map((result) => result.rank)).toEqual([1, 2, 3, 4]);
    expect(output.results[1]?.url).toBe(net.web.pages.article);
    const [request] = net.search.requests;
    expect(request).toMatchObject({ provider: 'tavily', method: 'POST', path: '/search', query: 'forge caching guide' });
    expect(request?.body).toMatchObject({ api_key: FIXTURE_TAVILY_API_KEY, query: 'forge caching guide', max_results: 4 });
    expect(request?.headers.authorization).toBe(`Bearer ${FIXTURE_TAVILY_API_KEY}`);
    expect(JSON.stringify(output)).not.toContain(FIXTURE_TAVILY_API_KEY);
  });

  it('Brave: sends X-Subscription-Token and count, and returns plain-text snippets', async () => {
    const output = await webSearch(brave(), { query: 'caching tool results', max_results: 2 });
    expect(output.provider).toBe('brave');
    expect(output.results).toHaveLength(2);
    expect(output.results[1]?.snippet).toBe(net.web.searchResults('')[1]?.snippet);
    const [request] = net.search.requests;
    expect(request).toMatchObject({ provider: 'brave', method: 'GET', path: '/res/v1/web/search', query: 'caching tool results' });
    expect(request?.headers['x-subscription-token']).toBe(FIXTURE_BRAVE_API_KEY);
    expect(JSON.stringify(output)).not.toContain(FIXTURE_BRAVE_API_KEY);
  });

  it('defaults to 5 results', async () => {
    expect((await webSearch(brave(), { query: 'caching tool results' })).results).toHaveLength(5);
  });

  it.each([
    ['Tavily', tavily, 'tvly-wrong-secret-key', 'TAVILY_API_KEY'],
    ['Brave Search', brave, 'brave-wrong-secret-key', 'BRAVE_API_KEY'],
  ])('%s: a rejected key becomes a clear error that does not contain the key', async (label, configWithKey, key, variable) => {
    const error = await rejection(webSearch(configWithKey(key), { query: 'anything' }));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.message).toContain(`${label} answered HTTP 401 (Unauthorized)`);
    expect(error.message).toContain(variable);
    expect(JSON.stringify(error.toJSON())).not.toContain(key);
  });

  it('results are readable with read_url through the same guard', async () => {
    const output = await webSearch(searxng(), { query: 'forge caching' });
    const article = output.results.find((result) => result.url === net.web.pages.article);
    expect(article).toBeDefined();
    const page = (await callTool(readUrlTool, { url: article?.url }, createToolContext({ fetch: net.fetch }))) as ReadUrlOutput;
    expect(page.url).toBe(net.web.pages.article);
  });

  it('cannot reach a search backend outside the allow list', async () => {
    const error = await rejection(webSearch(searxng(), { query: 'anything' }, { fetch: createGuardedFetch() }));
    expect(error).toBeInstanceOf(NetworkBlockedError);
    expect(error.message).toContain('127.0.0.1 is a loopback address');
    expect(net.search.requests).toEqual([]);
  });
});

describe('web_search configuration errors', () => {
  it('without a provider, names the variables to set and spends nothing', async () => {
    const model = createScriptedUtilityModel('unused');
    const error = await rejection(webSearch({}, { query: 'beste Restaurants in München' }, { utilityModel: model }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).variable).toBe('FORGE_SEARCH');
    for (const variable of ['FORGE_SEARCH=searxng', 'FORGE_SEARXNG_URL', 'TAVILY_API_KEY', 'BRAVE_API_KEY']) expect(error.hint).toContain(variable);
    expect(model.requests).toHaveLength(0);
    expect(net.search.requests).toHaveLength(0);
  });

  it.each([
    [{ provider: 'searxng' } as const, 'FORGE_SEARXNG_URL'],
    [{ provider: 'tavily' } as const, 'TAVILY_API_KEY'],
    [{ provider: 'brave' } as const, 'BRAVE_API_KEY'],
  ])('a provider without its setting (%o) names %s', async (config, variable) => {
    const error = await rejection(webSearch(config, { query: 'anything' }));
    expect((error as ConfigurationError).variable).toBe(variable);
  });
});

describe('web_search query translation', () => {
  it('translates a non-English query with the utility model, searches the translation and reports both', async () => {
    const model = createScriptedUtilityModel('"best restaurants in Munich"');
    const output = await webSearch(searxng(), { query: 'beste Restaurants in München' }, { utilityModel: model });
    expect(output).toMatchObject({ query: 'beste Restaurants in München', translated_query: 'best restaurants in Munich', translation: 'translated' });
    expect(output.note).toBeUndefined();
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toMatchObject({ prompt: 'beste Restaurants in München', purpose: 'query-translation' });
    expect(model.requests[0]?.maxOutputTokens).toBeLessThanOrEqual(100);
    expect(net.search.requests.map((request) => request.query)).toEqual(['best restaurants in Munich']);
  });

  it('does not call the model for an English query', async () => {
    const model = createScriptedUtilityModel('unused');
    const output = await webSearch(searxng(), { query: 'best restaurants in Munich' }, { utilityModel: model });
    expect(output).toMatchObject({ translation: 'not_needed', translated_query: null });
    expect(model.requests).toHaveLength(0);
  });

  it('without a utility model, searches the original query and says translation was unavailable', async () => {
    const output = await webSearch(searxng(), { query: 'лучшие рестораны Мюнхена' });
    expect(output).toMatchObject({ query: 'лучшие рестораны Мюнхена', translated_query: null, translation: 'unavailable' });
    expect(output.note).toContain('no utility model');
    expect(net.search.requests.map((request) => request.query)).toEqual(['лучшие рестораны Мюнхена']);
  });

  it('when the model fails, searches the original query and says so', async () => {
    let calls = 0;
    const failingModel: UtilityModel = {
      slug: 'scripted:failing',
      async complete() {
        calls += 1;
        throw new Error('model unreachable');
      },
    };
    const output = await webSearch(searxng(), { query: 'meilleurs restaurants à Munich' }, { utilityModel: failingModel });
    expect(output).toMatchObject({ translation: 'failed', translated_query: null });
    expect(output.note).toContain('model unreachable');
    expect(calls).toBe(1);
    expect(net.search.requests.map((request) => request.query)).toEqual(['meilleurs restaurants à Munich']);
  });
});
