import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { plainRelativePath } from '../../security/index.js';
import type { GitToolSettings } from './git-tool-settings.js';
import { outputText, workspaceGit } from './workspace-git.js';

const inputSchema = z.object({
  paths: z
    .array(z.string().min(1))
    .min(1)
    .max(100)
    .describe('Files or folders to stage, relative to the workspace ("." for everything); deleted files are staged as deletions.'),
});

/** `git_add({paths})`: stages files for the next commit; every path is checked by the jail's rules first. */
export function gitAddTool(settings: GitToolSettings) {
  return defineTool({
    name: 'git_add',
    description: 'Stage files or folders of the workspace repository for the next commit (like git add). Returns the short status afterwards, so you see what is staged.',
    inputSchema,
    risk: 'medium',
    sideEffect: 'write',
    external: true,
    async execute(input, context): Promise<string> {
      // Checked before git runs at all: an absolute path or a ".." never reaches it.
      const paths = input.paths.map((path) => plainRelativePath(path));
      const git = await workspaceGit(context, settings);
      await git.run(['add', '--', ...paths]);
      return outputText(await git.run(['status', '--short', '--branch', '--ignore-submodules=all']), settings, '(git printed nothing)');
    },
  });
}
