export type SkillStatus = 'active' | 'stale';

/**
 * A stored skill at one of its versions. `document` is the portable skill document exactly as the
 * skills module wrote it (versioned JSON; the store never interprets it). `name` is unique; saving a
 * document under an existing name adds a version (the skill keeps its id and creation time) and makes
 * it the current one. Versions are immutable: nothing ever changes a saved version's document.
 */
export interface SkillRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** The document as saved, or the column's raw text when it no longer parses (a damaged row), which the reader refuses by name; the skill stays listed. */
  readonly document: unknown;
  readonly status: SkillStatus;
  /** Why the skill is stale; null while it is active. */
  readonly staleReason: string | null;
  /** The version this record shows (the current one unless a version was asked for). */
  readonly version: number;
  /** The skill's current version. */
  readonly currentVersion: number;
  /** The account that made it; null when none did (the CLI, or before accounts): the first admin's. */
  readonly userId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One version of a skill: its document and where it came from (its lineage). */
export interface SkillVersionRecord {
  readonly skillId: string;
  readonly version: number;
  readonly document: unknown;
  /** What made it: `saved from run 5f0c…`, `recording from run 7a1b… added`, `pinned steps[2].subject`, `rolled back to version 1`. */
  readonly note: string;
  /** The version it was derived from; null for a first version. */
  readonly parentVersion: number | null;
  readonly createdAt: string;
}

export interface NewSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly document: unknown;
  /** What makes this version (kept as its lineage note). */
  readonly note: string;
  /** The version this one derives from; default: the current version, if the skill exists. */
  readonly parentVersion?: number | null;
  /** The owning account of a new skill; a new version of an existing skill keeps its owner. */
  readonly userId?: string | null;
}

export interface SkillStore {
  /** Creates the skill at version 1, or adds the next version to the one with the same name (active again). */
  save(skill: NewSkill): Promise<SkillRecord>;
  /** By id or by name; at `version` when given (undefined when the skill or the version does not exist). */
  get(idOrName: string, version?: number): Promise<SkillRecord | undefined>;
  /** Every version of a skill, oldest first; empty for an unknown skill. */
  versions(idOrName: string): Promise<SkillVersionRecord[]>;
  /** Oldest first, each at its current version. */
  list(): Promise<SkillRecord[]>;
  /** Marks a skill stale with its reason, or active again with `reason: null`; throws NotFoundError for an unknown skill. */
  setStatus(idOrName: string, status: SkillStatus, reason: string | null): Promise<SkillRecord>;
  /**
   * Gives a skill another name, keeping its id, versions and status; throws NotFoundError for an unknown
   * skill and DuplicateRecordError when another skill has the name. Documents are not touched.
   */
  rename(idOrName: string, name: string): Promise<SkillRecord>;
  /** Deletes the skill with every version; returns whether it existed. */
  delete(idOrName: string): Promise<boolean>;
}
