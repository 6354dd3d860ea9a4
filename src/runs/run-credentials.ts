import type { Credentials } from '../core/index.js';
import { redactedCredentials } from '../security/redaction/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';

/**
 * The credentials a run resolves its models with: an account's run uses the account's stored provider
 * keys (else the server's), redacted like every key the runtime hands out; a run without an account
 * uses the runtime's.
 */
export function runCredentials(runtime: Pick<ForgeRuntime, 'credentials' | 'providerKeys' | 'redactor'>, userId: string | null | undefined): Credentials {
  if (userId === null || userId === undefined) return runtime.credentials;
  return redactedCredentials(runtime.providerKeys.credentialsFor(userId, runtime.credentials), runtime.redactor);
}
