import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { GitCommandError } from './git-errors.js';
import type { GitToolSettings } from './git-tool-settings.js';
import { outputText, workspaceGit } from './workspace-git.js';

const inputSchema = z.object({
  limit: z.number().int().min(1).max(200).default(20).describe('How many commits to show, newest first (default 20, at most 200).'),
});

/** `git_log({limit?})`: the latest commits of the current branch, one line each. */
export function gitLogTool(settings: GitToolSettings) {
  return defineTool({
    name: 'git_log',
    description: 'Show the latest commits of the current branch in the workspace repository, newest first, one per line: short hash, date, author, subject.',
    inputSchema,
    risk: 'low',
    sideEffect: 'read',
    external: true,
    async execute(input, context): Promise<string> {
      const git = await workspaceGit(context, settings);
      const args = ['log', `--max-count=${input.limit}`, '--no-color', '--no-show-signature', '--no-mailmap', '--date=short', '--format=%h %ad %an: %s'];
      try {
        return outputText(await git.run(args), settings, 'No commits yet.');
      } catch (error) {
        // A fresh repository: its branch names no commit yet, which is an answer, not a failure.
        if (error instanceof GitCommandError && /does not have any commits yet/.test(error.message)) return 'No commits yet.';
        throw error;
      }
    },
  });
}
