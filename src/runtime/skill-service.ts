import { randomBytes } from 'node:crypto';
import { ConfigurationError, NotFoundError, type ApprovalGate, type Policy, type SkillRecord, type SkillVersionRecord, type Store } from '../core/index.js';
import {
  mergeRecording,
  parseSkillDocument,
  parseSkillReference,
  pinConstants,
  skillFromRunEvents,
  testSkillAgainstRecording,
  unpinnedWriteConstants,
  type SkillDocument,
  type SkillTestReport,
} from '../skills/index.js';
import type { ToolRegistry } from '../tools/index.js';

export interface SaveSkillFromRunOptions {
  readonly name?: string;
  readonly description?: string;
  /** Arguments to pin as constants (`steps[2].subject`). */
  readonly constants?: readonly string[];
  /** Add the run as another recording of this stored skill instead of saving a new one. */
  readonly into?: string;
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

/**
 * The stored skills of a runtime: saved from runs, imported, edited and rolled back (each change a new
 * version with its lineage), listed, read and tested offline against their recordings. Replaying a
 * skill is a run: see `runSkill`.
 */
export class SkillService {
  constructor(private readonly parts: SkillServiceParts) {}

  /** Every stored skill at its current version. */
  list(): Promise<SkillRecord[]> {
    return this.parts.store.skills.list();
  }

  /** A stored skill (at a version, with `name@n`) and its document; `NotFoundError` saying what to do when there is none. */
  async load(reference: string): Promise<{ record: SkillRecord; document: SkillDocument }> {
    const { idOrName, version } = parseSkillReference(reference);
    const record = await this.parts.store.skills.get(idOrName, version);
    if (record === undefined) {
      if (version !== undefined && (await this.parts.store.skills.get(idOrName)) !== undefined) {
        throw new NotFoundError('skill version', reference, `List its versions with \`forge skill versions ${idOrName}\`.`);
      }
      throw new NotFoundError('skill', reference, 'List the stored skills with `forge skill list`, or save one from a run with `forge skill save <run-id>`.');
    }
    return { record, document: parseSkillDocument(record.document) };
  }

  /** A skill's versions with their lineage, oldest first, and the skill as it is now. */
  async versions(reference: string): Promise<{ record: SkillRecord; versions: SkillVersionRecord[] }> {
    const { record } = await this.load(reference);
    return { record, versions: await this.parts.store.skills.versions(record.id) };
  }

  /** A skill's unpinned write constants, judging steps with an unrecorded side effect by the registered tool. */
  writeConstants(document: SkillDocument): { name: string; value: unknown }[] {
    return unpinnedWriteConstants(document, (tool) => this.parts.registry.get(tool)?.sideEffect);
  }

  /**
   * Abstracts a finished run (from its stored events) into a skill and stores it as a new version under
   * its name; with `into`, adds the run as another recording of that skill (arguments that differ across
   * recordings become inputs or stay bound, never constants).
   */
  async saveFromRun(runId: string, options: SaveSkillFromRunOptions = {}): Promise<SavedSkill> {
    const events = await this.parts.store.events.list(runId);
    if (events.length === 0) throw new NotFoundError('run', runId, 'Use a run id printed by `forge run` (its --json output has run_id).');
    if (options.into !== undefined) {
      const { document: existing } = await this.load(options.into);
      const addition = skillFromRunEvents(events, this.parts.registry, { constants: options.constants ?? [] });
      return this.save(mergeRecording(existing, addition), `recording from run ${runId} added`);
    }
    const document = skillFromRunEvents(events, this.parts.registry, {
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.description === undefined ? {} : { description: options.description }),
      ...(options.constants === undefined ? {} : { constants: options.constants }),
    });
    return this.save(document, `saved from run ${runId}`);
  }

  /**
   * Stores an imported skill document (any known format version) as a new version under its name. A
   * document whose id another stored skill already has (a copy renamed by hand) gets an id of its own.
   */
  async import(value: unknown): Promise<SavedSkill> {
    const document = parseSkillDocument(value);
    const holder = await this.parts.store.skills.get(document.id);
    const id = holder !== undefined && holder.name !== document.name ? randomBytes(6).toString('hex') : document.id;
    return this.save({ ...document, id }, 'imported');
  }

  /** Pins arguments as constants (`steps[2].subject`): a new version; the write gate then lets them through. */
  async edit(reference: string, edit: { readonly constants: readonly string[] }): Promise<SavedSkill> {
    if (edit.constants.length === 0) throw new ConfigurationError('--constant', 'names no argument to pin.', 'Name one or more arguments, e.g. --constant steps[2].subject (see `forge skill show`).');
    const { record, document } = await this.load(reference);
    return this.save(pinConstants(document, edit.constants), `pinned ${edit.constants.join(', ')}`, record.version);
  }

  /** Makes an older version current again, as a new version whose lineage points at it. */
  async rollback(name: string, version: number): Promise<SavedSkill> {
    const { record } = await this.load(`${parseSkillReference(name).idOrName}@${version}`);
    return this.save(parseSkillDocument(record.document), `rolled back to version ${version}`, version);
  }

  /** Re-runs a stored skill on each of its recordings against the recorded tool outputs, offline. */
  async test(reference: string): Promise<SkillTestReport> {
    const { document } = await this.load(reference);
    return testSkillAgainstRecording(document, this.parts.registry, this.parts);
  }

  private async save(document: SkillDocument, note: string, parentVersion?: number): Promise<SavedSkill> {
    const saved = await this.parts.store.skills.save({ id: document.id, name: document.name, description: document.description, document, note, ...(parentVersion === undefined ? {} : { parentVersion }) });
    const stored = { ...document, id: saved.id };
    return { document: stored, version: saved.version, write_constants: this.writeConstants(stored) };
  }
}
