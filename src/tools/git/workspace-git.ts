import type { ToolContext } from '../../core/index.js';
import { repositoryOf } from './git-repository.js';
import type { GitToolSettings } from './git-tool-settings.js';
import { openGitRunner, type GitOutput, type GitRunner } from './run-git.js';

/** The git runner for this call's workspace repository, refused unless it is one git can use safely. */
export async function workspaceGit(context: Pick<ToolContext, 'workspace' | 'signal'>, settings: GitToolSettings): Promise<GitRunner> {
  return openGitRunner(await repositoryOf(context, settings.workspace), settings, context.signal);
}

/** git's output as a tool result: `whenEmpty` for none, and a visible marker when it was cut at the cap. */
export function outputText(output: GitOutput, settings: Pick<GitToolSettings, 'maxOutputBytes'>, whenEmpty: string): string {
  const text = output.text.trimEnd();
  if (output.truncated) return `${text}\n[truncated by Forge: git printed more than ${settings.maxOutputBytes} bytes; only the first ones are shown]`;
  return text === '' ? whenEmpty : text;
}
