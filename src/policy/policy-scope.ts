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

/** The scope of rules an admin sets for every version of an agent (`forge policy set --scope agent:<slug>`). */
export function agentScope(slug: string): string {
  return `agent:${slug}`;
}

/** The scope of one agent definition version's own tool access, saved with the version: narrower than `agentScope`. */
export function agentVersionScope(slug: string, version: number): string {
  return `agent:${slug}.v${version}`;
}

/** The scopes a run of an agent version is decided under, broadest first. */
export function agentRunScopes(pin: { readonly slug: string; readonly version: number }): string[] {
  return [agentScope(pin.slug), agentVersionScope(pin.slug, pin.version)];
}

export function runScope(runId: string): string {
  return `run:${runId}`;
}

/** A run's own rules can only tighten what broader scopes decided: whoever starts a run may not relax the installation's choices. */
export function tightensOnly(scope: string): boolean {
  return scope.startsWith('run:');
}
