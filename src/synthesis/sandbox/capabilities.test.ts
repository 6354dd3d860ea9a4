import { describe, expect, it } from 'vitest';
import { capabilityNames, capabilityRegistry, describeCapabilitiesForPrompt, isCapabilityName } from './capabilities.js';
import { findUndeclaredCapabilities } from './capability-check.js';
import { SandboxSetupError } from './sandbox-setup-error.js';

const run = { signal: new AbortController().signal, appendLog: () => undefined };

describe('the capability registry', () => {
  it('names fetch, fs and log and nothing else', () => {
    expect(capabilityNames).toEqual(['fetch', 'fs', 'log']);
    expect(isCapabilityName('fs')).toBe(true);
    expect(isCapabilityName('process')).toBe(false);
    expect(isCapabilityName('toString')).toBe(false);
  });

  it('generates the prompt from each granted capability, in registry order, and only those', () => {
    const text = describeCapabilitiesForPrompt(['log', 'fetch', 'log']);
    expect(text).toBe(describeCapabilitiesForPrompt(['fetch', 'log']));
    expect(text).toContain(capabilityRegistry.fetch.signature);
    expect(text).toContain(capabilityRegistry.fetch.description);
    expect(text).toContain(capabilityRegistry.log.signature);
    expect(text.indexOf('### fetch')).toBeLessThan(text.indexOf('### log'));
    expect(text).not.toContain('forge.fs.readFile');
  });

  it('tells a tool without capabilities to work from its input alone', () => {
    const text = describeCapabilitiesForPrompt([]);
    expect(text).toContain('no capabilities');
    for (const name of capabilityNames) expect(text).not.toContain(capabilityRegistry[name].signature);
  });

  it('refuses to build a capability whose host resource is missing', () => {
    expect(() => capabilityRegistry.fetch.createHostMethods({}, run)).toThrow(SandboxSetupError);
    expect(() => capabilityRegistry.fs.createHostMethods({}, run)).toThrow(SandboxSetupError);
    expect(Object.keys(capabilityRegistry.log.createHostMethods({}, run))).toEqual(['log']);
  });
});

describe('findUndeclaredCapabilities', () => {
  it('reports used capabilities missing from the declaration, in registry order', () => {
    expect(findUndeclaredCapabilities(['log'], ['log', 'fs', 'fetch'])).toEqual(['fetch', 'fs']);
    expect(findUndeclaredCapabilities(['fetch', 'log'], ['fetch'])).toEqual([]);
    expect(findUndeclaredCapabilities([], [])).toEqual([]);
  });
});
