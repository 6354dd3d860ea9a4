import type { CredentialProvider } from './credentials.js';

/** A model provider key of an account, sealed; only its last 4 characters are ever shown. */
export interface ProviderKeyRecord {
  readonly userId: string;
  readonly provider: CredentialProvider;
  /** The key sealed by the installation's secret box (`v2.<key id>.…`). */
  readonly sealedKey: string;
  readonly last4: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Accounts' model provider keys, sealed at rest. */
export interface ProviderKeyStore {
  /** Stores or replaces an account's key for a provider. */
  put(key: Pick<ProviderKeyRecord, 'userId' | 'provider' | 'sealedKey' | 'last4'>): Promise<ProviderKeyRecord>;
  get(userId: string, provider: CredentialProvider): Promise<ProviderKeyRecord | undefined>;
  /** One account's keys by provider; every account's without `userId`. */
  list(userId?: string): Promise<ProviderKeyRecord[]>;
  remove(userId: string, provider: CredentialProvider): Promise<boolean>;
  /** Replaces sealed keys in one transaction (re-encryption under a new secret key). */
  reseal(keys: readonly Pick<ProviderKeyRecord, 'userId' | 'provider' | 'sealedKey'>[]): Promise<void>;
}
