import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { startFixtureWeb, type FixtureWeb } from '../fixtures/fixture-web.js';
import { startSearchServer, type SearchServer } from '../fixtures/search-server.js';

/**
 * Everything an end-to-end engine test needs on loopback: aimock playing the model (OpenAI and
 * Anthropic wire formats), the fixture web on pinned host names, a SearXNG-format search server, and
 * an empty FORGE_HOME. `env` is the environment a user would set to point Forge at them.
 */
export interface EngineWorld {
  readonly mock: LLMock;
  readonly web: FixtureWeb;
  readonly search: SearchServer;
  readonly home: string;
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

export async function startEngineWorld(): Promise<EngineWorld> {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  await mock.start();
  const web = await startFixtureWeb();
  const search = await startSearchServer(web.searchResults);
  const home = await mkdtemp(path.join(tmpdir(), 'forge-e2e-'));
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    FORGE_HOME: home,
    FORGE_RESOLVE: web.resolveEntries,
    FORGE_ALLOW_HOSTS: `${web.allowHosts},${search.allowHosts}`,
    FORGE_SEARCH: 'searxng',
    FORGE_SEARXNG_URL: search.baseUrl,
    OPENAI_API_KEY: 'test-openai-key',
    OPENAI_BASE_URL: `${mock.url}/v1`,
    ANTHROPIC_API_KEY: 'test-anthropic-key',
    ANTHROPIC_BASE_URL: mock.url,
  };
  return {
    mock,
    web,
    search,
    home,
    env,
    async close() {
      await mock.stop();
      await web.close();
      await search.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The request bodies aimock received whose text mentions `marker`, oldest first. */
export function requestsMentioning(mock: LLMock, marker: string): Array<{ path: string; body: unknown }> {
  return mock
    .getRequests()
    .filter((request) => JSON.stringify(request.body).includes(marker))
    .map((request) => ({ path: request.path, body: request.body }));
}
