import path from 'node:path';
import { resolveLayeredSettings } from '../config/index.js';
import { configFromEnvironment, type Environment, type ForgeConfig } from '../compose/index.js';
import type { FixtureWorldServer } from './fixture-world-server.js';

/**
 * The variables through which a demo could reach a real model or a database. A demo deletes them from
 * its environment (and ignores them in configuration files), so it needs no key, reaches no network and
 * cannot spend money.
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
  'FORGE_OPENAI_COMPATIBLE_API_KEY',
] as const;

/** What a demo's fixture world needs in the environment: its hosts pinned to loopback and let through the SSRF guard, its search engine as the search backend. */
export function fixtureWorldEnvironment(world: FixtureWorldServer): Record<string, string> {
  return { FORGE_ALLOW_HOSTS: world.allowHosts, FORGE_RESOLVE: world.resolve, FORGE_SEARCH: 'searxng', FORGE_SEARXNG_URL: world.searchUrl };
}

/**
 * The configuration a demo opens its runtime with: the user's settings (environment and config files)
 * minus every way to a model or a database, in the user's Forge home (or `<home>/<folder>` when a
 * folder is given), with the fixture world's environment.
 */
export function demoConfig(env: Environment, world: FixtureWorldServer, folder?: string, cwd: string = process.cwd()): { home: string; config: ForgeConfig } {
  const settings = resolveLayeredSettings(env, cwd);
  const home = folder === undefined ? settings.home.path : path.join(settings.home.path, folder);
  const demoEnv: Record<string, string | undefined> = { ...settings.env };
  for (const variable of MODEL_VARIABLES) delete demoEnv[variable];
  return { home, config: configFromEnvironment({ ...demoEnv, FORGE_HOME: home, ...fixtureWorldEnvironment(world) }, cwd) };
}
