import { ForgeError } from '../../core/index.js';

/**
 * The host asked for a run that cannot start: impossible limits, a granted capability whose host
 * resource was not supplied, or a sandbox installation that is incomplete. Nothing of the guest ran.
 */
export class SandboxSetupError extends ForgeError {
  constructor(message: string, hint?: string) {
    super({ name: 'SandboxSetupError', message, ...(hint === undefined ? {} : { hint }) });
  }
}
