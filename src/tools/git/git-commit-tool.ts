import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import type { GitToolSettings } from './git-tool-settings.js';
import { outputText, workspaceGit } from './workspace-git.js';

const inputSchema = z.object({
  message: z.string().trim().min(1).max(10_000).describe('The commit message: a short subject line, optionally a blank line and more text.'),
});

/** `git_commit({message})`: commits what is staged, as the configured Forge identity; hooks never run. */
export function gitCommitTool(settings: GitToolSettings) {
  return defineTool({
    name: 'git_commit',
    description: `Commit what is staged (git_add) in the workspace repository with the given message, as ${settings.identity.name} <${settings.identity.email}>. Fails when nothing is staged.`,
    inputSchema,
    risk: 'medium',
    sideEffect: 'write',
    external: true,
    async execute(input, context): Promise<string> {
      const git = await workspaceGit(context, settings);
      const { name, email } = settings.identity;
      const identity = { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
      return outputText(await git.run(['commit', '--no-verify', '--no-gpg-sign', '--message', input.message], identity), settings, '(git printed nothing)');
    },
  });
}
