import { CREDENTIAL_PROVIDERS, type CredentialProvider, type Credentials } from '../core/index.js';

/** The keys one model resolution may use, by vendor; a vendor left out has none. */
export type ModelKeys = Readonly<Partial<Record<CredentialProvider, string>>>;

/** The vendors' own environment variables for their keys. */
export const CREDENTIAL_VARIABLES: Readonly<Record<CredentialProvider, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
  'openai-compatible': 'FORGE_OPENAI_COMPATIBLE_API_KEY',
};

function keyOf(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Keys from the environment (`OPENAI_API_KEY`, …): the CLI's credentials, and the default of every runtime. */
export class EnvironmentCredentials implements Credentials {
  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  async get(provider: CredentialProvider): Promise<string | undefined> {
    return keyOf(this.env[CREDENTIAL_VARIABLES[provider]]);
  }
}

export function modelKeysFromEnvironment(env: Readonly<Record<string, string | undefined>>): ModelKeys {
  return Object.fromEntries(CREDENTIAL_PROVIDERS.flatMap((provider) => {
    const key = keyOf(env[CREDENTIAL_VARIABLES[provider]]);
    return key === undefined ? [] : [[provider, key]];
  }));
}

/**
 * Every vendor's key from `credentials`, read at once, for one model resolution (which needs them all
 * when it has to choose the first vendor with a key). Nothing else is consulted: a key the credentials
 * do not have is missing, whatever the environment holds.
 */
export async function readModelKeys(credentials: Credentials): Promise<ModelKeys> {
  const keys = await Promise.all(CREDENTIAL_PROVIDERS.map(async (provider) => [provider, keyOf(await credentials.get(provider))] as const));
  return Object.fromEntries(keys.filter(([, key]) => key !== undefined));
}
