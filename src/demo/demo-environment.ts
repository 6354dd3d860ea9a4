import path from 'node:path';
import type { Environment } from '../runtime/index.js';
import type { FixtureWorldServer } from './fixture-world-server.js';

/**
 * The variables through which a demo could reach a real model or a database. A demo deletes them from
 * its environment, so it needs no key, reaches no network and cannot spend money.
 */
const MODEL_VARIABLES = [
  'FORGE_MODEL',
  'FORGE_TEST_MODEL',
  'FORGE_RESCUE_MODEL',
  'FORGE_CASSETTE_RECORD',
  'FORGE_DATABASE_URL',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENROUTER_API_KEY',
] as const;

/**
 * The environment a demo opens its runtime with: the user's, minus every way to a model or a database,
 * with its own data folder `<FORGE_HOME>/<folder>` and the fixture world's hosts pinned to loopback and
 * let through the SSRF guard, its search engine as the search backend.
 */
export function demoEnvironment(env: Environment, folder: string, world: FixtureWorldServer): { home: string; env: Environment } {
  const home = path.resolve(env['FORGE_HOME']?.trim() || '.forge', folder);
  const demoEnv: Record<string, string | undefined> = { ...env };
  for (const variable of MODEL_VARIABLES) delete demoEnv[variable];
  return {
    home,
    env: { ...demoEnv, FORGE_HOME: home, FORGE_ALLOW_HOSTS: world.allowHosts, FORGE_RESOLVE: world.resolve, FORGE_SEARCH: 'searxng', FORGE_SEARXNG_URL: world.searchUrl },
  };
}
