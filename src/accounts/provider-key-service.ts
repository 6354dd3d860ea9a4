import { CREDENTIAL_PROVIDERS, ConfigurationError, ForgeError, type CredentialProvider, type Credentials, type ProviderKeyRecord, type ProviderKeyStore } from '../core/index.js';
import { sealedKeyId, type SecretBox } from '../adapters/store/index.js';

/** Sealed secrets exist that the configured secret key cannot open: the server must not start on them. */
export class SecretKeyError extends ForgeError {
  constructor(message: string, hint: string) {
    super({ name: 'SecretKeyError', message, hint });
  }
}

function parseProvider(provider: string): CredentialProvider {
  if (!(CREDENTIAL_PROVIDERS as readonly string[]).includes(provider)) throw new ConfigurationError('provider', `must be one of ${CREDENTIAL_PROVIDERS.join(', ')}, got "${provider.slice(0, 40)}".`);
  return provider as CredentialProvider;
}

/**
 * Accounts' model provider keys, sealed at rest by the installation's secret box (AES-256-GCM with a
 * key id). A key is never shown again, only its last 4 characters; the key a run reads goes through the
 * runtime's redactor first (see `redactedCredentials`), so it never reaches an event or a log.
 */
export class ProviderKeyService {
  constructor(
    private readonly store: ProviderKeyStore,
    private readonly box: SecretBox,
  ) {}

  async set(userId: string, provider: string, key: string): Promise<ProviderKeyRecord> {
    const trimmed = key.trim();
    if (trimmed.length < 8 || trimmed.length > 500 || /\s/.test(trimmed)) throw new ConfigurationError('key', 'must be the provider\'s API key: 8 to 500 characters, no spaces.');
    return this.store.put({ userId, provider: parseProvider(provider), sealedKey: this.box.seal(trimmed), last4: trimmed.slice(-4) });
  }

  list(userId: string): Promise<ProviderKeyRecord[]> {
    return this.store.list(userId);
  }

  async remove(userId: string, provider: string): Promise<boolean> {
    return this.store.remove(userId, parseProvider(provider));
  }

  /**
   * The credentials of an account's runs: its own key for a provider when it stored one, else
   * `fallback`'s (the server's environment). Composed here, explicitly; a stored key that no longer
   * opens fails the model resolution rather than falling back.
   */
  credentialsFor(userId: string, fallback: Credentials): Credentials {
    return {
      get: async (provider) => {
        const stored = await this.store.get(userId, provider);
        return stored === undefined ? fallback.get(provider) : this.box.open(stored.sealedKey);
      },
    };
  }

  /**
   * Refuses (SecretKeyError) when sealed provider keys exist that the configured key cannot open,
   * saying which: no key configured at all, or another key than the one that sealed them.
   */
  async checkSecretKey(source: 'environment' | 'file' | 'missing'): Promise<void> {
    const sealed = await this.store.list();
    if (sealed.length === 0) return;
    if (source === 'missing') {
      throw new SecretKeyError(
        `${sealed.length} stored provider key${sealed.length === 1 ? ' is' : 's are'} sealed, but no secret key is configured: FORGE_SECRET_KEY is unset and FORGE_HOME/secret.key does not exist.`,
        'Set FORGE_SECRET_KEY to the key that sealed them, or restore FORGE_HOME/secret.key.',
      );
    }
    const current = this.box.keyId();
    const foreign = sealed.filter((record) => sealedKeyId(record.sealedKey) !== null && sealedKeyId(record.sealedKey) !== current);
    if (foreign.length > 0) {
      throw new SecretKeyError(
        `The ${source === 'environment' ? 'FORGE_SECRET_KEY' : 'FORGE_HOME/secret.key'} in use (key id ${current}) is not the key that sealed ${foreign.length} stored provider key${foreign.length === 1 ? '' : 's'} (key id ${sealedKeyId(foreign[0]!.sealedKey)}).`,
        'Use the key that sealed them (its id is shown), or remove those keys and add them again.',
      );
    }
    try {
      this.box.open(sealed[0]!.sealedKey);
    } catch {
      throw new SecretKeyError('A stored provider key does not open with the configured secret key: it was sealed with another key or altered.', 'Use the key that sealed it, or remove the key and add it again.');
    }
  }

  /** Re-seals every stored provider key under `next` (a new secret key), in one transaction. */
  async resealAll(next: SecretBox): Promise<number> {
    const sealed = await this.store.list();
    await this.store.reseal(sealed.map((record) => ({ userId: record.userId, provider: record.provider, sealedKey: next.seal(this.box.open(record.sealedKey)) })));
    return sealed.length;
  }
}
