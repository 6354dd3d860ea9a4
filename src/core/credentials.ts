/** The model vendors whose calls are authorised with a key. */
export const CREDENTIAL_PROVIDERS = ['openai', 'anthropic', 'openrouter', 'openai-compatible'] as const;

export type CredentialProvider = (typeof CREDENTIAL_PROVIDERS)[number];

/**
 * Where model keys come from. The runtime asks for a key when it resolves a model (once per run, and
 * once per extra model a run uses: tester, rescue), never earlier, and never keeps a key beyond the
 * model it built with it; every key it reads is added to the runtime's redactor first, so it never
 * reaches an event, a run log or a stored message. The environment (`OPENAI_API_KEY`, …) is one
 * implementation; a server's encrypted per-user keys are another.
 *
 * `get` is asynchronous because real sources are: a store row to decrypt, a secrets manager. It
 * resolves `undefined` when no key is configured for `provider` (a model that needs one then fails with
 * `ModelNotConfiguredError`); it rejects only when the source itself failed, and that error ends the
 * model resolution. An implementation never falls back to another source on its own.
 */
export interface Credentials {
  get(provider: CredentialProvider): Promise<string | undefined>;
}
