import type { GuardedFetch } from '../../core/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import { registerPromotedTool } from './register-promoted-tools.js';
import type { Toolbox } from './toolbox.js';
import type { ToolboxEntry } from './toolbox-entry.js';
import { ToolVerificationError } from './toolbox-errors.js';
import { TOOLBOX_MANIFEST_VERSION, parseToolboxManifest, type ToolboxManifest } from './toolbox-manifest.js';
import { verifiedModuleFields } from './verified-module-fields.js';

/** `forge tools export`: every tool of the toolbox, in the order each was first added, use counts included. */
export async function exportToolboxManifest(toolbox: Toolbox): Promise<ToolboxManifest> {
  return { version: TOOLBOX_MANIFEST_VERSION, tools: await toolbox.list() };
}

export interface ImportToolboxOptions {
  /** Lent to a promoted tool that declares `fetch` while its test runs again. */
  readonly fetch: GuardedFetch;
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * `forge tools import`: brings the tools of a manifest (`text`, read from `file`, the name errors give)
 * into the toolbox, and its promoted tools into the catalog for runs started from then on. A manifest
 * comes from elsewhere, so its `promoted` is a claim: each promoted tool passes the verification gate
 * again here, and is stored with the name, schema and capabilities its verified module declares. Tools
 * of other statuses are stored as they are (never registered, so never run; `forge tools test` can judge
 * them). All or nothing: a broken manifest is a `ToolboxManifestError` naming every problem, a promoted
 * tool that fails the gate a `ToolVerificationError` naming it, and then nothing is imported. A tool the
 * toolbox already holds is replaced and keeps its use count; a new one starts from the manifest's count.
 * Returns the imported entries as stored.
 */
export async function importToolboxManifest(toolbox: Toolbox, registry: ToolRegistry, text: string, file: string, options: ImportToolboxOptions): Promise<ToolboxEntry[]> {
  const manifest = parseToolboxManifest(text, file);
  const entries: ToolboxEntry[] = [];
  for (const entry of manifest.tools) {
    if (entry.status !== 'promoted') {
      entries.push(entry);
      continue;
    }
    const fields = await verifiedModuleFields(toolbox, registry, { toolSource: entry.source, testSource: entry.test, ...options });
    if (fields.name !== entry.name) {
      throw new ToolVerificationError(entry.name, [`${file} lists it under the name "${entry.name}", but its module's meta names it "${fields.name}"`]);
    }
    entries.push({ ...entry, ...fields, failures: [] });
  }
  const stored: ToolboxEntry[] = [];
  for (const entry of entries) {
    const put = await toolbox.put(entry);
    registerPromotedTool(registry, toolbox, put);
    stored.push(put);
  }
  return stored;
}
