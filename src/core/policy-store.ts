/** One saved version of one scope's policy document: immutable once written. */
export interface PolicyVersion {
  /** `installation`, `agent:<slug>`, `deployment:<id>` or `run:<id>`. */
  readonly scope: string;
  /** 1, 2, …: each save of a scope is the next. */
  readonly version: number;
  /** The document as validated JSON (the policy module's schema defines it; the store keeps it opaque). */
  readonly document: unknown;
  readonly author: string;
  readonly message: string;
  readonly createdAt: string;
}

export type NewPolicyVersion = Omit<PolicyVersion, 'version' | 'createdAt'>;

/** Versioned policy documents per scope. */
export interface PolicyStore {
  /**
   * Saves the next version of a scope, atomically: two saves at once get two versions, never one
   * number twice. When `expectedVersion` is given and the scope's latest is another, nothing is saved
   * and undefined is resolved (someone saved in between).
   */
  save(version: NewPolicyVersion, options?: { expectedVersion?: number }): Promise<PolicyVersion | undefined>;
  /** The latest version of each of these scopes that has one. */
  latest(scopes: readonly string[]): Promise<PolicyVersion[]>;
  get(scope: string, version: number): Promise<PolicyVersion | undefined>;
  /** A scope's versions, newest first. */
  versions(scope: string): Promise<PolicyVersion[]>;
  /** Every scope with at least one version, sorted; those starting with `prefix` when given. */
  scopes(prefix?: string): Promise<string[]>;
}
