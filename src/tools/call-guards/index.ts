export { CallGuards, type Admission, type CallGuardOptions, type GuardedCall } from './call-guards.js';
export { DEFAULT_CALL_GUARD_SETTINGS, monotonicClock, type CallGuardSettings, type Clock } from './call-guard-settings.js';
export type { CachedResult } from './result-cache.js';
