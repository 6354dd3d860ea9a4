export { CassetteMismatchError, cassetteSchema, createCassettePlayer, createCassetteRecorder, readCassette, type Cassette, type CassetteSubstitutions } from './cassette-model.js';
export { CostMeter, type CostTotals, type MeteredCall } from './cost-meter.js';
export { ModelInputHasher, hashModelInput, type ModelInput } from './input-hash.js';
export { MODEL_PROVIDERS, modelSlugWithBaseUrl, parseModelSlug, type ModelProvider, type ModelSlug } from './model-slug.js';
export { addCosts, costOf, priceOf, type ModelPrice } from './pricing.js';
export { NO_MODEL_HELP, defaultModelSlug, resolveModel, type Environment, type ResolvedModel } from './resolve-model.js';
export { createUtilityModel } from './utility-model.js';
export { RetriesExhaustedError, callWithRetries } from './call-with-retries.js';
export { CREDENTIAL_VARIABLES, EnvironmentCredentials, modelKeysFromEnvironment, readModelKeys, type ModelKeys } from './model-keys.js';
