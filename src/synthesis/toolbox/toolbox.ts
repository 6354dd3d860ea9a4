import { rm } from 'node:fs/promises';
import path from 'node:path';
import { TOOL_NAME_PATTERN, ToolDefinitionError, type ToolboxStore } from '../../core/index.js';
import { migrateToolboxManifest, type ToolboxManifestMigration } from './manifest-migration.js';
import type { ToolboxEntry } from './toolbox-entry.js';
import { ToolboxEntryError, ToolboxNameTakenError } from './toolbox-errors.js';
import { toolboxEntryOf, toolboxRecordOf } from './toolbox-record.js';

/** Where a toolbox's files live: `FORGE_HOME/toolbox`. */
export function toolboxFolder(home: string): string {
  return path.join(home, 'toolbox');
}

/**
 * The toolbox of synthesized and hand-added tools. The store (`Store.toolbox`) is its only source of
 * truth: every read asks it, so every runtime and process on one store sees the same tools, and
 * nothing is cached here to drift. An entry, module source and test included, is one store record;
 * uses are counted by the store atomically. The folder holds only files: each tool's `files/<name>/`,
 * the jail of its `fs` capability, and scratch folders while a tool is verified (created 0700: they
 * hold what tools wrote). A manifest file is an export and import format (`toolbox-transfer.ts`),
 * read here only once, as the migration from the Forge that kept the toolbox in it.
 */
export class Toolbox {
  private constructor(
    readonly folder: string,
    private readonly store: ToolboxStore,
    /** What opening migrated from a manifest file of an older Forge; null when there was nothing to migrate. */
    readonly migration: ToolboxManifestMigration | null,
  ) {}

  /**
   * The toolbox `store` holds, with its files in `folder`. A `manifest.json` an older Forge left in the
   * folder is migrated first (see `migrateToolboxManifest`); a broken one is a `ToolboxManifestError`
   * and nothing is imported from it.
   */
  static async open(folder: string, store: ToolboxStore): Promise<Toolbox> {
    return new Toolbox(folder, store, await migrateToolboxManifest(folder, store));
  }

  /** The folder `forge.fs` is jailed to for this tool; a name that is not a tool name (a path) is refused. */
  filesFolder(name: string): string {
    if (!TOOL_NAME_PATTERN.test(name)) throw new ToolDefinitionError(name, 'a toolbox tool name must match ^[a-zA-Z0-9_-]{1,64}$, so it can never name a folder outside the toolbox.');
    return path.join(this.folder, 'files', name);
  }

  /** Every readable tool, in the order each was first added; entries the store holds damaged are in `unreadable`. */
  async list(): Promise<ToolboxEntry[]> {
    return (await this.read()).entries;
  }

  /** The entries the store holds that cannot be read: never registered, listed so they can be removed. */
  async unreadable(): Promise<ToolboxEntryError[]> {
    return (await this.read()).unreadable;
  }

  /** The entry named `name`; a damaged one is a `ToolboxEntryError` saying how to remove it. */
  async get(name: string): Promise<ToolboxEntry | undefined> {
    const record = await this.store.get(name);
    return record === undefined ? undefined : toolboxEntryOf(record);
  }

  private async read(): Promise<{ entries: ToolboxEntry[]; unreadable: ToolboxEntryError[] }> {
    const entries: ToolboxEntry[] = [];
    const unreadable: ToolboxEntryError[] = [];
    for (const record of await this.store.list()) {
      try {
        entries.push(toolboxEntryOf(record));
      } catch (error) {
        if (!(error instanceof ToolboxEntryError)) throw error;
        unreadable.push(error);
      }
    }
    return { entries, unreadable };
  }

  /** The verified tools of the installation's toolbox: the ones every run is offered. */
  async promoted(): Promise<ToolboxEntry[]> {
    return (await this.list()).filter((tool) => tool.status === 'promoted' && tool.owner === null);
  }

  /** The entries a run of `owner` may see: the installation's and the account's own (the operator's: the installation's). */
  async visibleTo(owner: string | null): Promise<ToolboxEntry[]> {
    return (await this.list()).filter((tool) => tool.owner === null || tool.owner === owner);
  }

  /**
   * Adds the entry or replaces the one with its name, and returns it as stored. Its `uses` counts only
   * for a new tool (an imported one brings its count); a replaced tool keeps the count the store holds.
   * A name another owner's tool holds is a `ToolboxNameTakenError`, and nothing is stored.
   */
  async put(entry: ToolboxEntry): Promise<ToolboxEntry> {
    if (!(await this.store.put(toolboxRecordOf(entry)))) throw new ToolboxNameTakenError(entry.name);
    return { ...entry, uses: (await this.store.get(entry.name))?.uses ?? entry.uses };
  }

  /** Moves a tool into the installation's toolbox; false when it is gone. */
  share(name: string): Promise<boolean> {
    return this.store.setOwner(name, null);
  }

  /** Counts one successful call of the tool (one atomic increment in the store); false when the tool is gone. */
  addUse(name: string): Promise<boolean> {
    return this.store.addUse(name);
  }

  /** Removes a tool and its files; returns whether it was listed. */
  async remove(name: string): Promise<boolean> {
    const existed = await this.store.delete(name);
    if (existed) await rm(this.filesFolder(name), { recursive: true, force: true });
    return existed;
  }

  /** `--fresh`: forgets every tool and deletes their files. */
  async wipe(): Promise<void> {
    await this.store.clear();
    await rm(path.join(this.folder, 'files'), { recursive: true, force: true });
  }
}
