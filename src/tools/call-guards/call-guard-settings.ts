/**
 * How one run's tool calls are guarded after the policy let them through (see `CallGuards`). Every
 * limit is per run: nothing here is shared between runs, so one account's results or failures never
 * reach another's run.
 */
export interface CallGuardSettings {
  /** How long a read-only call's result is served again to an identical call, in milliseconds; 0: no cache (FORGE_TOOL_CACHE_TTL). */
  readonly cacheTtlMs: number;
  /** The most results the cache holds; the least recently used go first. */
  readonly cacheMaxEntries: number;
  /** The most the cache holds, in bytes of the strings it keeps (2 a UTF-16 code unit); the least recently used go first. */
  readonly cacheMaxBytes: number;
  /** How long a call may run before it is stopped, in milliseconds (FORGE_TOOL_TIMEOUT). */
  readonly timeoutMs: number;
  /** Timeouts of particular tools, by exact name, in milliseconds (FORGE_TOOL_TIMEOUTS). */
  readonly toolTimeoutsMs: ReadonlyMap<string, number>;
  /** Calls of one tool a run may make in any minute; 0: no limit (FORGE_TOOL_RATE_LIMIT). */
  readonly toolCallsPerMinute: number;
  /** Tool calls a run may make in any minute, all tools together; 0: no limit (FORGE_RUN_TOOL_RATE_LIMIT). */
  readonly runCallsPerMinute: number;
  /** Failures in a row after which a tool is blocked for the rest of the run. */
  readonly failuresToBlock: number;
}

export const DEFAULT_CALL_GUARD_SETTINGS: CallGuardSettings = {
  cacheTtlMs: 300_000,
  cacheMaxEntries: 256,
  cacheMaxBytes: 8 * 1024 * 1024,
  timeoutMs: 120_000,
  toolTimeoutsMs: new Map(),
  toolCallsPerMinute: 60,
  runCallsPerMinute: 300,
  failuresToBlock: 3,
};

/** A monotonic clock in milliseconds; tests pass one they move by hand. */
export type Clock = () => number;

export const monotonicClock: Clock = () => performance.now();
