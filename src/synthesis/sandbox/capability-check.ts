import { sortCapabilityNames } from './capabilities.js';
import type { CapabilityName } from './capability-definition.js';

/**
 * The capabilities a tool used without declaring them, in registry order. Promotion requires this to be
 * empty (used ⊆ declared): a tool's meta must say everything it touches.
 */
export function findUndeclaredCapabilities(declared: readonly CapabilityName[], used: readonly CapabilityName[]): CapabilityName[] {
  const allowed = new Set(declared);
  return sortCapabilityNames(used.filter((name) => !allowed.has(name)));
}
