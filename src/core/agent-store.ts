/** Which version of which agent definition a run ran. */
export interface AgentPin {
  readonly slug: string;
  readonly version: number;
}

/** One saved version of an agent definition: a full snapshot, immutable once written. */
export interface AgentVersionRecord {
  readonly slug: string;
  /** 1, 2, …: each save of the agent is the next. */
  readonly version: number;
  /** The definition as validated JSON (the agents module's schema defines it; the store keeps it opaque). */
  readonly definition: unknown;
  /** The fields this version changed against the one before (`tools.shell`, `system_prompt`); all for the first. */
  readonly changedFields: readonly string[];
  readonly message: string;
  readonly author: string;
  readonly createdAt: string;
}

/** An agent: its versions' head, the version runs use by default, and its owner. */
export interface AgentRecord {
  readonly slug: string;
  readonly name: string;
  /** The version `forge run --agent <slug>` runs (rollback moves it). */
  readonly activeVersion: number;
  readonly latestVersion: number;
  /** The account that made it; null for the CLI's. */
  readonly userId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type NewAgentVersion = Pick<AgentVersionRecord, 'definition' | 'changedFields' | 'message' | 'author'> & { readonly name: string };

export interface AgentStore {
  /** Creates an agent with its version 1, active; `DuplicateRecordError` when the slug is taken. */
  create(slug: string, first: NewAgentVersion, owner: { userId: string | null }): Promise<{ agent: AgentRecord; version: AgentVersionRecord }>;
  /**
   * Saves the next version and makes it active, atomically; undefined when the agent's latest version is
   * no longer `expectedLatest` (someone saved in between) or the agent is gone.
   */
  addVersion(slug: string, next: NewAgentVersion, expectedLatest: number): Promise<{ agent: AgentRecord; version: AgentVersionRecord } | undefined>;
  /** Points the agent at one of its versions; undefined when it has no such version. */
  setActive(slug: string, version: number): Promise<AgentRecord | undefined>;
  get(slug: string): Promise<AgentRecord | undefined>;
  /** Every agent, by slug. */
  list(): Promise<AgentRecord[]>;
  version(slug: string, version: number): Promise<AgentVersionRecord | undefined>;
  /** The agent's versions, newest first. */
  versions(slug: string): Promise<AgentVersionRecord[]>;
  /** Removes the agent and its versions; false when there was none. Runs keep their pin. */
  remove(slug: string): Promise<boolean>;
}
