import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { plainRelativePath } from '../../security/index.js';
import type { GitToolSettings } from './git-tool-settings.js';
import { outputText, workspaceGit } from './workspace-git.js';

const inputSchema = z.object({
  path: z.string().min(1).optional().describe('Only this file or folder, relative to the workspace; default: the whole repository.'),
  staged: z.boolean().default(false).describe('Show what is staged for the next commit instead of what is changed but not staged.'),
});

/** `git_diff({path?, staged?})`: the unstaged (or staged) changes as a unified diff. */
export function gitDiffTool(settings: GitToolSettings) {
  return defineTool({
    name: 'git_diff',
    description:
      'Show the changes in the workspace repository as a unified diff: by default what is changed but not yet staged, with staged: true what is staged for the next commit. ' +
      'path limits it to one file or folder. Untracked files are not shown (git_status lists them).',
    inputSchema,
    risk: 'low',
    sideEffect: 'read',
    external: true,
    async execute(input, context): Promise<string> {
      const paths = input.path === undefined ? [] : [plainRelativePath(input.path)];
      const git = await workspaceGit(context, settings);
      const args = ['diff', ...(input.staged ? ['--cached'] : []), '--no-ext-diff', '--no-textconv', '--no-color', '--ignore-submodules=all', '--', ...paths];
      return outputText(await git.run(args), settings, input.staged ? 'Nothing is staged.' : 'No unstaged changes.');
    },
  });
}
