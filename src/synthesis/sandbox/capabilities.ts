import type { CapabilityDefinition, CapabilityName } from './capability-definition.js';
import { fetchCapability } from './fetch-capability.js';
import { fsCapability } from './fs-capability.js';
import { logCapability } from './log-capability.js';

/**
 * The one list of what a synthesized tool can ever be given. The author prompt, meta validation, the
 * worker's `forge` object and the host implementations are all derived from it, so they cannot drift.
 */
export const capabilityRegistry: Readonly<Record<CapabilityName, CapabilityDefinition>> = {
  fetch: fetchCapability,
  fs: fsCapability,
  log: logCapability,
};

/** Every capability name, in registry order (the order used in prompts and reports). */
export const capabilityNames = Object.keys(capabilityRegistry) as readonly CapabilityName[];

export function isCapabilityName(value: unknown): value is CapabilityName {
  return typeof value === 'string' && Object.hasOwn(capabilityRegistry, value);
}

/** Deduplicates and puts names in registry order, so reports and comparisons are stable. */
export function sortCapabilityNames(names: Iterable<CapabilityName>): CapabilityName[] {
  const present = new Set(names);
  return capabilityNames.filter((name) => present.has(name));
}

/**
 * The part of the author prompt that says what `forge` carries, generated from the registry for the
 * capabilities a tool is allowed. Deterministic: the same names give the same text.
 */
export function describeCapabilitiesForPrompt(names: readonly CapabilityName[]): string {
  const granted = sortCapabilityNames(names);
  if (granted.length === 0) {
    return '`forge` carries no capabilities: compute the result from `input` alone. Any `forge.<name>` throws CapabilityNotGrantedError.';
  }
  const sections = granted.map((name) => {
    const capability = capabilityRegistry[name];
    return [`### ${name}`, '```ts', capability.signature, '```', capability.description].join('\n');
  });
  return [
    '`forge` carries exactly these capabilities; any other `forge.<name>` throws CapabilityNotGrantedError. ' +
      'They take and return plain data (no host objects), and every call that returns a promise must be awaited.',
    ...sections,
  ].join('\n\n');
}
