import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolboxEntry } from './toolbox-entry.js';
import { ToolboxMirrorError } from './toolbox-errors.js';
import { emptyManifest, parseToolboxManifest, type ToolboxManifest } from './toolbox-manifest.js';
import { syncToolboxMirror, toolboxRecordOf, type ToolboxMirror } from './toolbox-mirror.js';

/** Where a toolbox lives: `FORGE_HOME/toolbox`. */
export function toolboxFolder(home: string): string {
  return path.join(home, 'toolbox');
}

/**
 * The toolbox of synthesized and hand-added tools, backed by `manifest.json` in its folder. Every change
 * is written to disk (atomically: a temporary file renamed over the old one) before the call resolves,
 * so in-memory state never drifts from the file. With a mirror (the store's `toolbox`), each change is
 * then written through to it, entry by entry; a mirror write that fails rejects the call with
 * `ToolboxMirrorError` after the file already holds the change. Each tool gets its own folder under
 * `files/` as the jail of its `fs` capability. The folder is created 0700 and the manifest 0600: they
 * hold tool sources and what tools wrote.
 */
export class Toolbox {
  private manifest: ToolboxManifest;

  private constructor(
    readonly folder: string,
    manifest: ToolboxManifest,
    private readonly mirror: ToolboxMirror | undefined,
  ) {
    this.manifest = manifest;
  }

  /**
   * Reads the manifest (an absent one is an empty toolbox); throws `ToolboxManifestError` for a broken one.
   * When the mirror disagrees with the file, it is rewritten from the file before this resolves.
   */
  static async open(folder: string, options: { mirror?: ToolboxMirror } = {}): Promise<Toolbox> {
    const file = path.join(folder, 'manifest.json');
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const toolbox = new Toolbox(folder, text === undefined ? emptyManifest() : parseToolboxManifest(text, file), options.mirror);
    await toolbox.writeThrough(null, (mirror) => syncToolboxMirror(mirror, toolbox.list()));
    return toolbox;
  }

  get manifestFile(): string {
    return path.join(this.folder, 'manifest.json');
  }

  /** The folder `forge.fs` is jailed to for this tool. */
  filesFolder(name: string): string {
    return path.join(this.folder, 'files', name);
  }

  list(): readonly ToolboxEntry[] {
    return this.manifest.tools;
  }

  get(name: string): ToolboxEntry | undefined {
    return this.manifest.tools.find((tool) => tool.name === name);
  }

  promoted(): readonly ToolboxEntry[] {
    return this.manifest.tools.filter((tool) => tool.status === 'promoted');
  }

  /** Adds the entry or replaces the one with its name, and persists. */
  async put(entry: ToolboxEntry): Promise<ToolboxEntry> {
    const others = this.manifest.tools.filter((tool) => tool.name !== entry.name);
    await this.save({ ...this.manifest, tools: [...others, entry].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.name.localeCompare(b.name)) });
    await this.writeThrough(entry.name, (mirror) => mirror.put(toolboxRecordOf(entry)));
    return entry;
  }

  /** Applies `change` to the named entry (stamping `updated_at`) and persists; undefined when absent. */
  async update(name: string, change: Partial<Omit<ToolboxEntry, 'name' | 'created_at'>>): Promise<ToolboxEntry | undefined> {
    const current = this.get(name);
    if (current === undefined) return undefined;
    return this.put({ ...current, ...change, updated_at: new Date().toISOString() });
  }

  /** Removes a tool and its files; returns whether it was listed. */
  async remove(name: string): Promise<boolean> {
    if (this.get(name) === undefined) return false;
    await this.save({ ...this.manifest, tools: this.manifest.tools.filter((tool) => tool.name !== name) });
    await rm(this.filesFolder(name), { recursive: true, force: true });
    await this.writeThrough(name, (mirror) => mirror.delete(name));
    return true;
  }

  /** `--fresh`: forgets every tool and deletes their files. */
  async wipe(): Promise<void> {
    await rm(path.join(this.folder, 'files'), { recursive: true, force: true });
    await this.save(emptyManifest());
    await this.writeThrough(null, (mirror) => mirror.clear());
  }

  private async save(manifest: ToolboxManifest): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const temporary = `${this.manifestFile}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
    await rename(temporary, this.manifestFile);
    this.manifest = manifest;
  }

  /** Applies a change to the mirror, if there is one; `toolName` names the tool it concerns, null for all. */
  private async writeThrough(toolName: string | null, change: (mirror: ToolboxMirror) => Promise<unknown>): Promise<void> {
    if (this.mirror === undefined) return;
    try {
      await change(this.mirror);
    } catch (error) {
      throw new ToolboxMirrorError(toolName, error);
    }
  }
}
