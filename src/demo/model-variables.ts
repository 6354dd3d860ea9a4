/**
 * The variables through which a demo could reach a real model or a database. The demos delete them from
 * their environment, so they need no key, reach no network and cannot spend money.
 */
export const MODEL_VARIABLES = [
  'FORGE_MODEL',
  'FORGE_TEST_MODEL',
  'FORGE_RESCUE_MODEL',
  'FORGE_CASSETTE_RECORD',
  'FORGE_DATABASE_URL',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENROUTER_API_KEY',
] as const;
