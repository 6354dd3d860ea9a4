import { ForgeError } from '../../core/index.js';

/**
 * Forge could not connect to Redis (the scaled mode's queue and event fan-out) within its connect
 * timeout. `target` is the `host:port` it tried, never the URL (which may hold a password); `code`
 * is the system's or Redis's own code for why (`ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, `WRONGPASS`, …)
 * when one was given.
 */
export class RedisUnavailableError extends ForgeError {
  readonly target: string;
  readonly code: string | undefined;
  constructor(options: { target: string; code: string | undefined; why: string; hint: string; cause?: unknown }) {
    super({ name: 'RedisUnavailableError', message: `Forge cannot reach Redis at ${options.target}: ${options.why}.`, hint: options.hint, cause: options.cause });
    this.target = options.target;
    this.code = options.code;
  }
}
