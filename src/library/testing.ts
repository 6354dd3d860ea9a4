import type { LanguageModelV3 } from '@ai-sdk/provider';
import { cassetteSchema, createCassettePlayer, type CassetteSubstitutions, type ResolvedModel } from '../llm/index.js';

/**
 * `forge-agent/testing`: run Forge in tests without a vendor. A cassette is a recorded model session
 * (`createCassetteRecorder` writes one from a real model; FORGE_CASSETTE_RECORD does it from the CLI);
 * `cassetteModel` plays it back turn by turn as the model of a run, failing loudly
 * (`CassetteMismatchError`) when a request differs from the recorded one. The fixture world is the
 * demo's local web (projects with docs, release pages and spam, and a SearXNG-format search engine) on
 * 127.0.0.1; point a runtime at it with its `resolve`, `allowHosts` and `searchUrl`.
 */
export { CassetteMismatchError, cassetteSchema, createCassettePlayer, createCassetteRecorder, readCassette, type Cassette, type CassetteSubstitutions } from '../llm/index.js';
export { WORLD_TOPICS, startFixtureWorld, topicOf, worldTask, type FixtureWorldServer, type WorldTopic } from '../demo/index.js';

/** A cassette (parsed JSON, e.g. from `readCassette(file)`) as a model to hand to `runTask({ model })` or `runSkill({ model })`. */
export function cassetteModel(cassette: unknown, options: { slug?: string; substitutions?: CassetteSubstitutions } = {}): ResolvedModel {
  const model: LanguageModelV3 = createCassettePlayer(cassetteSchema.parse(cassette), options.substitutions ?? {});
  return { slug: options.slug ?? 'cassette:session', provider: 'cassette', model };
}
