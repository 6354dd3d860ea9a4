export { parseAllowHosts } from './allow-hosts.js';
export { describeBlockedAddress } from './blocked-address.js';
export { systemDnsLookup, type DnsLookup, type ResolvedAddress } from './dns-lookup.js';
export { createGuardedFetch, type GuardedFetchOptions } from './guarded-fetch.js';
export { guardedFetchOptionsFromEnv } from './guarded-fetch-options-from-env.js';
export { parseResolveEntries, type ResolveEntry } from './resolve-entries.js';
export { FileJailError, createFileJail, defaultFileJailLimits, type FileJail, type FileJailEntry, type FileJailLimits, type FileJailOptions, type FileJailRefusal } from './file-jail.js';
export { destinationRulesFrom, type DestinationOptions } from './destination-rules.js';
export { createGuardedStreamFetch, type StreamFetch } from './guarded-stream-fetch.js';
