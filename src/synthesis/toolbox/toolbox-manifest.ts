import { z } from 'zod';
import { ToolboxManifestError } from './toolbox-errors.js';
import { toolboxEntrySchema, type ToolboxEntry } from './toolbox-entry.js';

/** The manifest format this build writes and reads. Older or newer versions are refused by name. */
export const TOOLBOX_MANIFEST_VERSION = 1;

/**
 * The toolbox as one file: the format `forge tools export` writes and `forge tools import` reads, and
 * the file (`FORGE_HOME/toolbox/manifest.json`) older Forges kept the toolbox in, migrated into the
 * store once. The store, not any manifest, is the toolbox's truth.
 */
export const toolboxManifestSchema = z.object({
  version: z.literal(TOOLBOX_MANIFEST_VERSION),
  tools: z.array(toolboxEntrySchema),
});

export type ToolboxManifest = z.infer<typeof toolboxManifestSchema>;

/**
 * Parses manifest text read from `file` (a path, or any name for where it came from). Throws
 * `ToolboxManifestError` naming the file and every problem: text that is not JSON, a missing or unknown
 * `version`, a malformed entry, or two entries with one name. Nothing is taken from a broken manifest.
 */
export function parseToolboxManifest(text: string, file: string): ToolboxManifest {
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ToolboxManifestError(file, [`not JSON: ${error instanceof Error ? error.message : String(error)}`]);
  }
  const version = typeof data === 'object' && data !== null ? (data as { version?: unknown }).version : undefined;
  if (version !== TOOLBOX_MANIFEST_VERSION) {
    throw new ToolboxManifestError(
      file,
      [version === undefined ? 'it has no "version" field' : `version ${JSON.stringify(version)} is not supported (this build reads version ${TOOLBOX_MANIFEST_VERSION})`],
    );
  }
  const parsed = toolboxManifestSchema.safeParse(data);
  if (!parsed.success) {
    throw new ToolboxManifestError(file, parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(manifest)'}: ${issue.message}`));
  }
  const names = parsed.data.tools.map((tool: ToolboxEntry) => tool.name);
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) throw new ToolboxManifestError(file, [`tools listed twice: ${[...new Set(repeated)].join(', ')}`]);
  return parsed.data;
}
