import type { AnyTool } from '../../core/index.js';
import type { OptionalToolOptions } from '../optional-tools.js';
import { shellIsolationSetting } from './shell-isolation.js';
import { createShellTool } from './shell-tool.js';

export { BLOCKED_COMMAND_PATTERNS, ShellCommandBlockedError, type BlockedCommandPattern } from '../../security/blocked-commands.js';
export { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, OUTPUT_LIMIT_BYTES, type ShellOutput } from './shell-tool.js';
export { ShellWorkingFolderError } from './working-folder.js';
export { SHELL_ISOLATION_SETTINGS, ShellIsolationUnavailableError, shellIsolationSetting, type ShellIsolationSetting } from './shell-isolation.js';
export { detectIsolationBoundary, type IsolationBoundary, type IsolationDetector, type IsolationKind } from './isolation-boundary.js';

/**
 * The `shell` group (FORGE_ENABLE_TOOLS=shell): the one `shell` tool, in the installation's workspace
 * unless a run sets its own, isolated as FORGE_SHELL_ISOLATION says.
 */
export function createShellTools(options: Pick<OptionalToolOptions, 'workspace' | 'home' | 'env' | 'server'>): AnyTool[] {
  return [createShellTool({ workspace: options.workspace, ...(options.home === undefined ? {} : { home: options.home }), isolation: shellIsolationSetting(options.env), server: options.server === true })];
}
