import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../core/index.js';
import { searchConfigFromEnv } from './search-config.js';

describe('searchConfigFromEnv', () => {
  it('is empty when nothing is set', () => {
    expect(searchConfigFromEnv({})).toEqual({});
  });

  it('infers searxng, then tavily, then brave from what is set', () => {
    expect(searchConfigFromEnv({ FORGE_SEARXNG_URL: 'http://127.0.0.1:8888', TAVILY_API_KEY: 't', BRAVE_API_KEY: 'b' }).provider).toBe('searxng');
    expect(searchConfigFromEnv({ TAVILY_API_KEY: 't', BRAVE_API_KEY: 'b' }).provider).toBe('tavily');
    expect(searchConfigFromEnv({ BRAVE_API_KEY: 'b', FORGE_SEARXNG_URL: '  ' }).provider).toBe('brave');
  });

  it('lets FORGE_SEARCH choose, and reads base URLs', () => {
    expect(
      searchConfigFromEnv({
        FORGE_SEARCH: ' Brave ',
        FORGE_SEARXNG_URL: 'http://searx.lan:8080',
        BRAVE_API_KEY: 'b',
        TAVILY_API_KEY: 't',
        FORGE_TAVILY_BASE_URL: 'https://tavily.proxy.example',
        FORGE_BRAVE_BASE_URL: 'https://brave.proxy.example/api',
      }),
    ).toEqual({
      provider: 'brave',
      searxngUrl: 'http://searx.lan:8080',
      tavilyApiKey: 't',
      tavilyBaseUrl: 'https://tavily.proxy.example',
      braveApiKey: 'b',
      braveBaseUrl: 'https://brave.proxy.example/api',
    });
  });

  it('rejects an unknown provider and malformed URLs, naming the variable', () => {
    expect(() => searchConfigFromEnv({ FORGE_SEARCH: 'google' })).toThrow(ConfigurationError);
    expect(() => searchConfigFromEnv({ FORGE_SEARCH: 'google' })).toThrow(/FORGE_SEARCH: "google" is not a search provider/);
    expect(() => searchConfigFromEnv({ FORGE_SEARXNG_URL: 'searx.lan:8080' })).toThrow(/FORGE_SEARXNG_URL/);
    expect(() => searchConfigFromEnv({ FORGE_BRAVE_BASE_URL: 'ftp://brave.example' })).toThrow(/FORGE_BRAVE_BASE_URL/);
  });

  it('never echoes a key in an error', () => {
    try {
      searchConfigFromEnv({ TAVILY_API_KEY: 'tvly-secret', FORGE_TAVILY_BASE_URL: 'not a url' });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('tvly-secret');
    }
  });
});
