import type { CredentialProvider, Credentials } from '../../core/index.js';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * `credentials` whose every key is added to `redactor` before anyone receives it, so a key from any
 * source (not only the environment's, which the runtime redacts on open) is taken out of events, run
 * logs, stored messages and what the CLI prints.
 */
export function redactedCredentials(credentials: Credentials, redactor: SecretRedactor): Credentials {
  return {
    async get(provider: CredentialProvider): Promise<string | undefined> {
      const key = await credentials.get(provider);
      if (key !== undefined) redactor.add(key);
      return key;
    },
  };
}
