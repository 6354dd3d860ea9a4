import { defaultModelSlug, readModelKeys, resolveModel, type ResolvedModel } from '../llm/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';

/**
 * Resolves `slug` (when absent: FORGE_MODEL, else the first vendor the runtime's credentials have a
 * key for) with keys from the runtime's credentials alone, never the environment's unless the
 * credentials are the environment. `variable` names the setting in errors (`--model`, `FORGE_TEST_MODEL`).
 */
export async function resolveRuntimeModel(runtime: Pick<ForgeRuntime, 'config' | 'credentials'>, slug: string | undefined, variable: string): Promise<ResolvedModel> {
  const keys = await readModelKeys(runtime.credentials);
  return resolveModel(defaultModelSlug(runtime.config.env, slug, keys), runtime.config.env, variable, keys);
}
