import type { AnyTool } from '../../core/index.js';
import type { OptionalToolOptions } from '../optional-tools.js';
import { createShellTool } from './shell-tool.js';

export { BLOCKED_COMMAND_PATTERNS, ShellCommandBlockedError, type BlockedCommandPattern } from '../../security/blocked-commands.js';
export { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, OUTPUT_LIMIT_BYTES, type ShellOutput } from './shell-tool.js';
export { ShellWorkingFolderError } from './working-folder.js';

/** The `shell` group (FORGE_ENABLE_TOOLS=shell): the one `shell` tool, in the installation's workspace unless a run sets its own. */
export function createShellTools(options: Pick<OptionalToolOptions, 'workspace'>): AnyTool[] {
  return [createShellTool(options.workspace)];
}
