import { randomBytes } from 'node:crypto';
import { ConfigurationError, NotFoundError, describeError, type ApprovalGate, type Policy, type SkillRecord, type SkillVersionRecord, type Store } from '../core/index.js';
import { resolveRun } from '../runs/index.js';
import {
  BrokenSkillError,
  SkillConflictError,
  SkillRecordingError,
  assertSkillName,
  mergeRecording,
  parseSkillDocument,
  parseSkillReference,
  pinConstants,
  skillFromRunEvents,
  testSkillAgainstRecording,
  unpinnedWriteConstants,
  type SkillDocument,
  type SkillTestReport,
} from './index.js';
import type { ToolRegistry } from '../tools/index.js';

export interface SaveSkillFromRunOptions {
  readonly name?: string;
  readonly description?: string;
  /** Arguments to pin as constants (`steps[2].subject`). */
  readonly constants?: readonly string[];
  /** Add the run as another recording of this stored skill instead of saving a new one. */
  readonly into?: string;
  /** Save even though the run is already saved as a skill or the name is taken: a new version of the skill of that name. */
  readonly force?: boolean;
  /** The account a new skill belongs to; none for the CLI's. */
  readonly userId?: string | null;
}

/** A stored skill as listed: its record and its document, or, when the stored document no longer reads, why. */
export interface SkillEntry {
  readonly record: SkillRecord;
  readonly document: SkillDocument | null;
  /** Why the stored document cannot be read; null when it can. */
  readonly problem: string | null;
}

/** A removed skill: what it was called and how many versions went with it. */
export interface RemovedSkill {
  readonly id: string;
  readonly name: string;
  readonly versions: number;
}

/** A saved skill, with the write arguments it sends as constants (each makes a replay refuse until pinned). */
export interface SavedSkill {
  readonly document: SkillDocument;
  readonly version: number;
  readonly write_constants: readonly { readonly name: string; readonly value: unknown }[];
}

export interface SkillServiceParts {
  readonly store: Store;
  /** The catalog: what a step's tool is (its side effect) when the recording does not say. */
  readonly registry: ToolRegistry;
  /** What a skill test's offline replay is judged by. */
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
}

/** How a staleness that a failed `forge skill test` gave a skill begins. */
const FAILED_TEST = 'its test failed: ';

/**
 * The stored skills of a runtime: saved from runs, imported, edited and rolled back (each change a new
 * version with its lineage), listed, read and tested offline against their recordings. Replaying a
 * skill is a run: see `runSkill`.
 */
export class SkillService {
  constructor(private readonly parts: SkillServiceParts) {}

  /** Every stored skill at its current version, broken ones too (with why they do not read). */
  async list(): Promise<SkillEntry[]> {
    return (await this.parts.store.skills.list()).map((record) => {
      try {
        return { record, document: this.documentOf(record), problem: null };
      } catch (error) {
        if (!(error instanceof BrokenSkillError)) throw error;
        return { record, document: null, problem: error.problem };
      }
    });
  }

  /** A stored skill (at a version, with `name@n`) and its document; `NotFoundError` saying what to do when there is none, `BrokenSkillError` when it no longer reads. */
  async load(reference: string): Promise<{ record: SkillRecord; document: SkillDocument }> {
    const record = await this.raw(reference);
    return { record, document: this.documentOf(record) };
  }

  /** A stored skill's record with its document exactly as stored, unread: what shows and removes a broken skill. */
  async raw(reference: string): Promise<SkillRecord> {
    const { idOrName, version } = parseSkillReference(reference);
    const record = await this.parts.store.skills.get(idOrName, version);
    if (record === undefined) {
      if (version !== undefined && (await this.parts.store.skills.get(idOrName)) !== undefined) {
        throw new NotFoundError('skill version', reference, `List its versions with \`forge skill versions ${idOrName}\`.`);
      }
      throw new NotFoundError('skill', reference, 'List the stored skills with `forge skill list`, or save one from a run with `forge skill save <run-id>`.', 'name or id');
    }
    return record;
  }

  /**
   * Deletes skills (by name or id) with every version, broken ones too. All or nothing up front: every
   * reference is found before any is deleted; a version (`name@2`) is refused, since versions are history.
   */
  async remove(references: readonly string[], options: { readonly confirm?: (skills: readonly RemovedSkill[]) => Promise<boolean> } = {}): Promise<RemovedSkill[]> {
    const records: SkillRecord[] = [];
    for (const reference of references) {
      if (parseSkillReference(reference).version !== undefined) throw new ConfigurationError('<skill>', `"${reference}" names a version; a skill is removed with all its versions.`, `Remove the skill by name (forge skill remove ${parseSkillReference(reference).idOrName}), or make another version current with \`forge skill rollback\`.`);
      const record = await this.raw(reference);
      if (!records.some((other) => other.id === record.id)) records.push(record);
    }
    const removing = records.map((record) => ({ id: record.id, name: record.name, versions: record.currentVersion }));
    if (options.confirm !== undefined && !(await options.confirm(removing))) return [];
    for (const record of records) await this.parts.store.skills.delete(record.id);
    return removing;
  }

  /**
   * Gives a skill a new (kebab-case, untaken) name, keeping its id, versions and status; when its
   * document reads, the renamed document is saved as its next version, so what it exports and
   * publishes carries the new name. Refused before anything changes when the name is bad or taken.
   */
  async rename(reference: string, newName: string): Promise<{ record: SkillRecord; previousName: string }> {
    assertSkillName(newName);
    const record = await this.raw(reference);
    if (parseSkillReference(reference).version !== undefined) throw new ConfigurationError('<skill>', `"${reference}" names a version; a skill is renamed with all its versions.`, `e.g. forge skill rename ${record.name} ${newName}`);
    if (record.name === newName) return { record, previousName: record.name };
    const holder = await this.parts.store.skills.get(newName);
    if (holder !== undefined) throw new SkillConflictError(newName, `A skill named "${newName}" exists already (version ${holder.currentVersion}).`, `Choose another name, or remove that one first with \`forge skill remove ${newName}\`.`);
    let document: SkillDocument | undefined;
    try {
      document = this.documentOf(record);
    } catch (error) {
      if (!(error instanceof BrokenSkillError)) throw error;
    }
    const renamed = await this.parts.store.skills.rename(record.id, newName);
    if (document === undefined) return { record: renamed, previousName: record.name };
    await this.save({ ...document, name: newName }, `renamed from ${record.name}`);
    return { record: (await this.parts.store.skills.get(record.id))!, previousName: record.name };
  }

  /**
   * A stored record's document, named as the skill is named now (a renamed skill's older versions keep
   * the name they were saved under); `BrokenSkillError` when it no longer reads.
   */
  documentOf(record: SkillRecord): SkillDocument {
    try {
      return { ...parseSkillDocument(record.document), name: record.name };
    } catch (error) {
      // Whatever a stored document holds, reading it fails as this one error, so the skill stays listable and removable.
      throw new BrokenSkillError(record.name, describeError(error).message);
    }
  }

  /** A skill's versions with their lineage, oldest first, and the skill as it is now. */
  async versions(reference: string): Promise<{ record: SkillRecord; versions: SkillVersionRecord[] }> {
    const { record } = await this.load(reference);
    return { record, versions: await this.parts.store.skills.versions(record.id) };
  }

  /** A skill's unpinned write constants, judging each step as a replay does, by the registered tool. */
  writeConstants(document: SkillDocument): { name: string; value: unknown }[] {
    return unpinnedWriteConstants(document, (tool) => this.parts.registry.get(tool));
  }

  /**
   * Abstracts a finished run (by id or unique id prefix, from its stored events) into a skill and
   * stores it as version 1 of a new skill; with `into`, adds the run as another recording of that skill
   * (arguments that differ across recordings become inputs or stay bound, never constants). Refused
   * before anything is stored: a name that is not kebab-case (`SkillNameError`), and, unless `force`, a
   * run some skill already recorded or a name another skill has (`SkillConflictError`); with `force`
   * the run becomes the next version of the skill of that name.
   */
  async saveFromRun(reference: string, options: SaveSkillFromRunOptions = {}): Promise<SavedSkill> {
    if (options.name !== undefined) assertSkillName(options.name);
    const { id: runId } = await resolveRun(this.parts.store.runs, reference);
    const events = await this.parts.store.events.list(runId);
    if (events.length === 0) throw new SkillRecordingError(runId, 'it recorded no events.', 'Save a run that finished with an answer (status completed).');
    if (options.into !== undefined) {
      const { record, document: existing } = await this.load(options.into);
      if (options.force !== true && recordedRunIds(existing).includes(runId)) {
        throw new SkillConflictError(record.name, `Run ${runId} is already a recording of skill "${record.name}".`, `Add another run, or pass --force to add it again as version ${record.currentVersion + 1}.`);
      }
      const addition = skillFromRunEvents(events, this.parts.registry, { constants: options.constants ?? [] });
      return this.save(mergeRecording(existing, addition), `recording from run ${runId} added`);
    }
    const document = skillFromRunEvents(events, this.parts.registry, {
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.description === undefined ? {} : { description: options.description }),
      ...(options.constants === undefined ? {} : { constants: options.constants }),
    });
    assertSkillName(document.name);
    if (options.force !== true) await this.refuseRepeat(runId, document.name);
    return this.save(document, `saved from run ${runId}`, undefined, options.userId ?? null);
  }

  /** Refuses a save that would repeat a stored skill: one whose versions recorded `runId`, or one named `name`. */
  private async refuseRepeat(runId: string, name: string): Promise<void> {
    for (const record of await this.parts.store.skills.list()) {
      const versions = await this.parts.store.skills.versions(record.id);
      const version = versions.find((candidate) => recordedRunIds(candidate.document).includes(runId));
      if (version !== undefined) {
        throw new SkillConflictError(
          record.name,
          `Run ${runId} is already saved as skill "${record.name}" (version ${version.version}).`,
          `Replay it with \`forge skill run ${record.name}\`, or pass --force to save the run again as ${record.name === name ? `version ${record.currentVersion + 1} of "${name}"` : `skill "${name}"`}.`,
        );
      }
    }
    const taken = await this.parts.store.skills.get(name);
    if (taken !== undefined) {
      throw new SkillConflictError(name, `A skill named "${name}" exists already (version ${taken.currentVersion}).`, `Choose another name with --name, or pass --force to save this run as version ${taken.currentVersion + 1} of "${name}".`);
    }
  }

  /**
   * Stores an imported skill document (any known format version) as a new version under its name. A
   * document whose id another stored skill already has (a copy renamed by hand) gets an id of its own.
   */
  async import(value: unknown, options: { userId?: string | null } = {}): Promise<SavedSkill> {
    const document = parseSkillDocument(value);
    const holder = await this.parts.store.skills.get(document.id);
    const id = holder !== undefined && holder.name !== document.name ? randomBytes(6).toString('hex') : document.id;
    return this.save({ ...document, id }, 'imported', undefined, options.userId);
  }

  /** Pins arguments as constants (`steps[2].subject`): a new version; the write gate then lets them through. */
  async edit(reference: string, edit: { readonly constants: readonly string[] }): Promise<SavedSkill> {
    if (edit.constants.length === 0) throw new ConfigurationError('--constant', 'names no argument to pin.', 'Name one or more arguments, e.g. --constant steps[2].subject (see `forge skill show`).');
    const { record, document } = await this.load(reference);
    return this.save(pinConstants(document, edit.constants), `pinned ${edit.constants.join(', ')}`, record.version);
  }

  /** Makes an older version current again, as a new version whose lineage points at it. */
  async rollback(name: string, version: number): Promise<SavedSkill> {
    const { document } = await this.load(`${parseSkillReference(name).idOrName}@${version}`);
    return this.save(document, `rolled back to version ${version}`, version);
  }

  /**
   * Re-runs a stored skill on each of its recordings against the recorded tool outputs, offline, and
   * records the verdict on its health: a failed test makes the skill stale with the reason (what
   * `forge skill show`, the API and the web badge show); a passing one clears a staleness an earlier
   * test gave it (not one a live replay found: the world may still have changed).
   */
  async test(reference: string): Promise<SkillTestReport> {
    const { record, document } = await this.load(reference);
    const report = await testSkillAgainstRecording(document, this.parts.registry, this.parts);
    if (!report.passed) await this.parts.store.skills.setStatus(record.id, 'stale', `${FAILED_TEST}${report.problems.join('; ')}`);
    else if (record.status === 'stale' && record.staleReason?.startsWith(FAILED_TEST) === true) await this.parts.store.skills.setStatus(record.id, 'active', null);
    return report;
  }

  private async save(document: SkillDocument, note: string, parentVersion?: number, userId?: string | null): Promise<SavedSkill> {
    const saved = await this.parts.store.skills.save({ id: document.id, name: document.name, description: document.description, document, note, ...(parentVersion === undefined ? {} : { parentVersion }), ...(userId === undefined ? {} : { userId }) });
    const stored = { ...document, id: saved.id };
    return { document: stored, version: saved.version, write_constants: this.writeConstants(stored) };
  }
}

/** The runs a stored document was recorded from, read without parsing it (a broken document too). */
function recordedRunIds(document: unknown): string[] {
  if (typeof document !== 'object' || document === null) return [];
  const { provenance, recordings } = document as { provenance?: unknown; recordings?: unknown };
  const ids = Array.isArray(recordings) ? recordings.map((recording: unknown) => (typeof recording === 'object' && recording !== null ? (recording as { run_id?: unknown }).run_id : undefined)) : [];
  if (typeof provenance === 'object' && provenance !== null) ids.push((provenance as { run_id?: unknown }).run_id);
  return ids.filter((id): id is string => typeof id === 'string');
}
