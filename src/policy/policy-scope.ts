import { z } from 'zod';

/**
 * Whose policy a document is: the installation's, an agent definition's, a deployment's, or one run's.
 * Broadest first, that is also the order they apply in.
 */
export const policyScopeSchema = z
  .string()
  .regex(/^(installation|(agent|deployment|run):[A-Za-z0-9_.-]{1,128})$/, 'must be installation, agent:<slug>, deployment:<id> or run:<id>');

export type PolicyScope = z.infer<typeof policyScopeSchema>;

export const INSTALLATION_SCOPE = 'installation';

export function runScope(runId: string): string {
  return `run:${runId}`;
}

/** A run's own rules can only tighten what broader scopes decided: whoever starts a run may not relax the installation's choices. */
export function tightensOnly(scope: string): boolean {
  return scope.startsWith('run:');
}
