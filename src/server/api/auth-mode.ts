import { ConfigurationError } from '../../core/index.js';
import type { AuthMode } from './api-route.js';

const MODES: readonly AuthMode[] = ['none', 'password', 'accounts'];

/**
 * The auth mode `forge serve` runs with: the one asked for (`--auth`, else FORGE_AUTH), else accounts
 * once an account exists, else the admin password when one is set, else none (loopback only).
 */
export function chooseAuthMode(options: { requested: string | undefined; hasUsers: boolean; password: string | undefined }): AuthMode {
  const requested = options.requested?.trim().toLowerCase();
  if (requested !== undefined && requested !== '') {
    if (!(MODES as readonly string[]).includes(requested)) throw new ConfigurationError('--auth', `must be none, password or accounts, got "${requested.slice(0, 40)}".`);
    return requested as AuthMode;
  }
  if (options.hasUsers) return 'accounts';
  return options.password === undefined ? 'none' : 'password';
}
