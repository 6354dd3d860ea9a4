/** The PATH every shell command gets, whatever Forge's own is. */
export const SHELL_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * The whole environment of a shell command: a fixed PATH, HOME = the workspace, a UTF-8 locale and a dumb
 * terminal. Nothing of Forge's own environment is passed on, so its keys (FORGE_SECRET_KEY, provider
 * API keys, database URLs) never reach a command.
 */
export function shellEnvironment(workspace: string): Record<string, string> {
  return { PATH: SHELL_PATH, HOME: workspace, LANG: 'C.UTF-8', TERM: 'dumb' };
}
