import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import type { GitToolSettings } from './git-tool-settings.js';
import { outputText, workspaceGit } from './workspace-git.js';

/** `git_status({})`: the branch and the changed, staged and untracked files, in git's short format. */
export function gitStatusTool(settings: GitToolSettings) {
  return defineTool({
    name: 'git_status',
    description:
      'Show the git status of the workspace repository in short form: the branch on the first line ("## main"), then one line per changed file ' +
      '(first column: staged, second: not staged; "??" untracked).',
    inputSchema: z.object({}),
    risk: 'low',
    sideEffect: 'read',
    external: true,
    async execute(_input, context): Promise<string> {
      const git = await workspaceGit(context, settings);
      return outputText(await git.run(['status', '--short', '--branch', '--ignore-submodules=all']), settings, '(git printed nothing)');
    },
  });
}
