import type { ToolContext } from '../../core/index.js';
import { createFileJail, type FileJail } from '../../security/index.js';
import { ensureWorkspace, workspaceOf } from '../workspace-folder.js';
import type { FileToolSettings } from './file-tool-settings.js';

/**
 * The file jail over this call's workspace folder (created when missing), stopped when the run is
 * cancelled. `.git` is protected: its config and hooks name programs git runs, so a file tool that
 * could write there could make the next `git status`, Forge's or a person's, run anything.
 */
export async function workspaceJail(context: Pick<ToolContext, 'workspace' | 'signal'>, settings: FileToolSettings): Promise<FileJail> {
  const folder = await ensureWorkspace(workspaceOf(context, settings.workspace));
  return createFileJail(folder, { maxListEntries: settings.limits.maxFolderEntries }, { signal: context.signal, protectedNames: ['.git'] });
}
