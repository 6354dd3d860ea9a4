import { Redis } from 'ioredis';
import { ConfigurationError } from '../../core/index.js';
import { RedisUnavailableError } from './redis-unavailable-error.js';

/** How long `connectRedis` waits for Redis to answer before it gives up, by default. */
export const DEFAULT_REDIS_CONNECT_TIMEOUT_MS = 5_000;

export interface ConnectRedisOptions {
  /** How long the first connection may take, retries included, before `RedisUnavailableError`; default 5 s. */
  readonly connectTimeoutMs?: number;
}

/**
 * The `host:port` a Redis URL points at (`redis://` or `rediss://`, port 6379 when absent), to name the
 * server in messages: never the URL itself, whose user info may hold a password.
 */
export function redisTarget(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notARedisUrl();
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw notARedisUrl();
  return `${parsed.hostname || '127.0.0.1'}:${parsed.port || '6379'}`;
}

function notARedisUrl(): ConfigurationError {
  return new ConfigurationError('FORGE_REDIS_URL', 'is not a Redis URL.', 'Write it as redis://[user:password@]host[:port][/db] (rediss:// for TLS), or unset it to run Forge in the embedded mode.');
}

/**
 * Opens a connection to the Redis at `url`, resolving once it is ready. The first connection is
 * bounded: when Redis does not answer within `connectTimeoutMs` (refused, unknown host, wrong
 * password, silence), the attempts stop and this rejects with `RedisUnavailableError`, which names
 * `host:port` and never the password. Once connected, the connection reconnects on its own for as long
 * as it lives, and says so on stderr (once per outage). Commands wait out an outage rather than fail
 * (`maxRetriesPerRequest: null`, as BullMQ's workers require). The caller closes it (`quit`).
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<Redis> {
  const target = redisTarget(url);
  const timeoutMs = options.connectTimeoutMs ?? DEFAULT_REDIS_CONNECT_TIMEOUT_MS;
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: Math.min(timeoutMs, 10_000),
    retryStrategy: (times) => Math.min(50 * 2 ** times, 2_000),
  });
  let lastError: unknown;
  const remember = (error: unknown) => (lastError = error);
  client.on('error', remember);
  try {
    await readyWithin(client, timeoutMs);
  } catch {
    client.disconnect();
    // disconnect() only half-closes a socket that connected but got no answer; a server that never reads would hold it open.
    client.stream?.destroy();
    throw unavailable(target, lastError, timeoutMs, url);
  } finally {
    client.off('error', remember);
  }
  reportOutages(client, target);
  return client;
}

/**
 * Another connection to the same server with the same options (a subscriber, a blocking reader), its
 * outages reported like the original's. It connects at once, without ioredis's ready check: a
 * connection whose first command is SUBSCRIBE is in subscriber mode by the time the check's INFO would
 * be sent, and Redis refuses INFO there, which failed the check and every SUBSCRIBE queued behind it.
 */
export function duplicateConnection(client: Redis): Redis {
  const duplicate = client.duplicate({ lazyConnect: false, enableReadyCheck: false });
  reportOutages(duplicate, connectionTarget(client));
  return duplicate;
}

/** The `host:port` a connection was made to. */
export function connectionTarget(client: Redis): string {
  return `${client.options.host ?? '127.0.0.1'}:${client.options.port ?? 6379}`;
}

function readyWithin(client: Redis, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('end', onEnd);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onReady = () => settle();
    const onEnd = () => settle(new Error('the connection ended'));
    const timer = setTimeout(() => settle(new Error('timed out')), timeoutMs);
    client.on('ready', onReady);
    client.on('end', onEnd);
    // connect() rejects at the first refused attempt while the retries go on; the events above decide.
    client.connect().catch(() => undefined);
  });
}

function unavailable(target: string, error: unknown, timeoutMs: number, url: string): RedisUnavailableError {
  const code = codeOf(error);
  const fix = `Start Redis there (for example \`redis-server --port ${target.slice(target.lastIndexOf(':') + 1)}\`) or correct FORGE_REDIS_URL; or unset FORGE_REDIS_URL to run Forge in the embedded mode (one process, no Redis).`;
  const seconds = `${Number((timeoutMs / 1000).toFixed(3))} s`;
  switch (code) {
    case 'ECONNREFUSED':
      return new RedisUnavailableError({ target, code, why: 'the connection was refused (nothing listens there)', hint: fix, cause: error });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new RedisUnavailableError({ target, code, why: 'its host name cannot be resolved', hint: fix, cause: error });
    case 'WRONGPASS':
    case 'NOAUTH':
    case 'NOPERM':
      return new RedisUnavailableError({ target, code, why: `it refused Forge's credentials (${code})`, hint: 'Check the user name and password in FORGE_REDIS_URL, or unset FORGE_REDIS_URL to run Forge in the embedded mode.', cause: error });
    case undefined:
    case 'ETIMEDOUT':
      return new RedisUnavailableError({ target, code, why: `no answer within ${seconds}`, hint: fix, cause: error });
    default:
      return new RedisUnavailableError({ target, code, why: withoutPassword(error instanceof Error ? error.message : String(error), url), hint: fix, cause: error });
  }
}

/** A system error's code (`ECONNREFUSED`), or a Redis reply's (`WRONGPASS invalid …` → `WRONGPASS`). */
function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  return /^([A-Z]{3,})\b/.exec(error.message)?.[1];
}

function withoutPassword(message: string, url: string): string {
  const password = new URL(url).password;
  return password === '' ? message : message.split(password).join('***').split(decodeURIComponent(password)).join('***');
}

/** Writes one line to stderr when `client` loses its connection, and one when it is back. */
function reportOutages(client: Redis, target: string): void {
  let down = false;
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    const code = codeOf(error);
    process.stderr.write(`forge: lost the connection to Redis at ${target}${code === undefined ? '' : ` (${code})`}; reconnecting.\n`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    process.stderr.write(`forge: reconnected to Redis at ${target}.\n`);
  });
}
