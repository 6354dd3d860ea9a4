import { ConfigurationError, ForgeError } from '../../core/index.js';
import type { IsolationBoundary, IsolationDetector } from './isolation-boundary.js';

/**
 * How shell commands are isolated (FORGE_SHELL_ISOLATION):
 * - `auto` (default): in a real boundary when the host offers one; where none works, commands run
 *   directly on the machine from the CLI, and are refused on a server (`forge serve`, `forge worker`).
 * - `required`: in a boundary, or not at all.
 * - `off`: directly on the machine, never isolated: the operator's opt-in (a throwaway container, a
 *   command that needs the network).
 */
export const SHELL_ISOLATION_SETTINGS = ['auto', 'required', 'off'] as const;
export type ShellIsolationSetting = (typeof SHELL_ISOLATION_SETTINGS)[number];

/** FORGE_SHELL_ISOLATION read from `env`; `auto` when unset. */
export function shellIsolationSetting(env: Readonly<Record<string, string | undefined>>): ShellIsolationSetting {
  const value = env['FORGE_SHELL_ISOLATION']?.trim().toLowerCase() ?? '';
  if (value === '') return 'auto';
  if ((SHELL_ISOLATION_SETTINGS as readonly string[]).includes(value)) return value as ShellIsolationSetting;
  throw new ConfigurationError('FORGE_SHELL_ISOLATION', `"${value.slice(0, 40)}" is not a setting; choose auto, required or off.`);
}

/** A shell command was refused because no isolation boundary works on this host and running it bare was not allowed. */
export class ShellIsolationUnavailableError extends ForgeError {
  constructor(setting: ShellIsolationSetting) {
    super({
      name: 'ShellIsolationUnavailableError',
      message:
        setting === 'required'
          ? 'The shell command was refused: FORGE_SHELL_ISOLATION=required, and no isolation boundary works on this host (neither bwrap nor unshare -rn).'
          : 'The shell command was refused: this server runs shell commands only inside an isolation boundary, and none works on this host (neither bwrap nor unshare -rn).',
      hint: 'Install bubblewrap (bwrap) or allow unprivileged user namespaces (so that `unshare -rn true` works), or, to run shell commands on this machine without isolation, set FORGE_SHELL_ISOLATION=off.',
    });
  }
}

/**
 * The boundary a command runs in, or undefined to run it directly; throws `ShellIsolationUnavailableError`
 * when it must be isolated and cannot be. `server`: the process serves other people (`forge serve`, `forge worker`).
 */
export async function isolationFor(setting: ShellIsolationSetting, server: boolean, detect: IsolationDetector): Promise<IsolationBoundary | undefined> {
  if (setting === 'off') return undefined;
  const boundary = await detect();
  if (boundary !== undefined) return boundary;
  if (setting === 'required' || server) throw new ShellIsolationUnavailableError(setting);
  return undefined;
}
