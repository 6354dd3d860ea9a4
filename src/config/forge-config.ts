import path from 'node:path';
import { z } from 'zod';
import { resolveLayeredSettings } from './index.js';
import { ConfigurationError } from '../core/index.js';
import { databaseUrlFromEnv } from '../adapters/store/index.js';
import { DEFAULT_CALL_GUARD_SETTINGS, type CallGuardSettings } from '../tools/call-guards/index.js';
import { OPTIONAL_TOOL_GROUPS, type OptionalToolGroup } from '../tools/tool-groups.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** The HTTP API's limits. */
export interface ApiLimits {
  readonly maxBodyBytes: number;
  /** 0: no limit. */
  readonly rateLimitPerMinute: number;
  readonly timeoutMs: number;
  /** Exact origins (`https://app.example.com`) whose pages may call the API; empty: same origin only. */
  readonly corsOrigins: readonly string[];
  /** How many run event streams stay open, and how long a client that takes nothing keeps one. */
  readonly eventStreams: EventStreamLimits;
}

/** The caps on `forge serve`'s run event streams (Server-Sent Events). */
export interface EventStreamLimits {
  /** Open streams of one account (all its sessions and keys together); the operator counts as one account. */
  readonly maxPerAccount: number;
  /** Open streams in all. */
  readonly maxTotal: number;
  /** A stream whose client has not taken what waits for it for this long is dropped. */
  readonly idleTimeoutMs: number;
  /** A stream whose data held unsent for its client would pass this is dropped. */
  readonly maxUnsentBytes: number;
}

/** The event-stream caps unless configured (FORGE_SSE_*); 1 MiB unsent is fixed. */
export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { maxPerAccount: 100, maxTotal: 10_000, idleTimeoutMs: 60_000, maxUnsentBytes: 1024 * 1024 };

/** FORGE_CORS_ORIGINS: exact `scheme://host[:port]` origins, commas between. */
function parseOrigins(text: string): string[] {
  const origins = text.split(',').map((origin) => origin.trim()).filter((origin) => origin !== '');
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) {
      throw new ConfigurationError('FORGE_CORS_ORIGINS', `"${origin.slice(0, 80)}" is not an origin.`, 'Write each as scheme://host[:port] with no path, e.g. https://app.example.com');
    }
  }
  return origins;
}

/** A whole-number setting of at least `min`, from its text; unset or blank is undefined. */
function integerSetting(variable: string, min: 0 | 1) {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === '') return undefined;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min) {
        context.addIssue({ code: 'custom', message: `${variable} must be ${min === 1 ? 'a positive whole number' : 'a whole number (0 or more)'}, got "${value}"` });
        return z.NEVER;
      }
      return parsed;
    });
}

const positiveInteger = (variable: string) => integerSetting(variable, 1);
const wholeNumber = (variable: string) => integerSetting(variable, 0);

/** The environment variables Forge reads for its own settings (vendor keys are read where used). */
export const forgeEnvironmentSchema = z.object({
  FORGE_HOME: z.string().optional(),
  FORGE_MODEL: z.string().optional(),
  FORGE_TEST_MODEL: z.string().optional(),
  FORGE_RESCUE_MODEL: z.string().optional(),
  FORGE_DATABASE_URL: z.string().optional(),
  FORGE_REDIS_URL: z.string().regex(/^rediss?:\/\//, { message: 'FORGE_REDIS_URL must be a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379), or unset for the embedded mode' }).optional().or(z.literal('')),
  FORGE_QUEUE_LOCK_MS: positiveInteger('FORGE_QUEUE_LOCK_MS'),
  FORGE_REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, { message: 'FORGE_REDIS_PREFIX must be 1-40 letters, digits, _ . or -' }).optional(),
  FORGE_ALLOW_HOSTS: z.string().optional(),
  FORGE_RESOLVE: z.string().optional(),
  FORGE_SECRET_KEY: z.string().optional(),
  FORGE_MCP_TOKEN: z.string().optional(),
  FORGE_MCP_ALLOW_STDIO: z.enum(['0', '1', ''], { message: 'FORGE_MCP_ALLOW_STDIO must be 1 (allow stdio MCP servers) or 0' }).optional(),
  FORGE_REDIS_ALLOW_NO_PASSWORD: z.enum(['0', '1', ''], { message: 'FORGE_REDIS_ALLOW_NO_PASSWORD must be 1 (use a Redis without a password beyond loopback) or 0' }).optional(),
  FORGE_HISTORY_MESSAGES: positiveInteger('FORGE_HISTORY_MESSAGES'),
  FORGE_HISTORY_TOKENS: positiveInteger('FORGE_HISTORY_TOKENS'),
  /** Seconds a call waits for its approval before its run fails `approval_expired`; default 3600. */
  FORGE_APPROVAL_TIMEOUT: positiveInteger('FORGE_APPROVAL_TIMEOUT'),
  /** The password `forge serve` requires of every request (as a bearer token); needed beyond loopback. */
  FORGE_ADMIN_PASSWORD: z.string().optional(),
  /** How `forge serve` authenticates: none (loopback only), password (FORGE_ADMIN_PASSWORD) or accounts; default accounts once one exists. */
  FORGE_AUTH: z.enum(['none', 'password', 'accounts', ''], { message: 'FORGE_AUTH must be none, password or accounts' }).optional(),
  /** Whether anyone may make an account on `forge serve` (POST /api/v1/auth/signup); default 0. */
  FORGE_OPEN_SIGNUP: z.enum(['0', '1', ''], { message: 'FORGE_OPEN_SIGNUP must be 1 (anyone may sign up) or 0' }).optional(),
  /** Signs access tokens; default a generated FORGE_HOME/session.key. */
  FORGE_SESSION_KEY: z.string().optional(),
  /** The largest request body `forge serve` reads, in bytes; default 1,000,000. */
  FORGE_API_MAX_BODY_BYTES: positiveInteger('FORGE_API_MAX_BODY_BYTES'),
  /** Requests a minute one caller (key, account, or address) may make of `forge serve`; 0 turns the limit off; default 120. */
  FORGE_API_RATE_LIMIT: wholeNumber('FORGE_API_RATE_LIMIT'),
  /** Seconds a `forge serve` request (not an event stream or download) may take before it is answered 503; default 60. */
  FORGE_API_TIMEOUT: positiveInteger('FORGE_API_TIMEOUT'),
  /** Run event streams one account may hold open on `forge serve` at once; default 100. */
  FORGE_SSE_MAX_STREAMS_PER_ACCOUNT: positiveInteger('FORGE_SSE_MAX_STREAMS_PER_ACCOUNT'),
  /** Run event streams `forge serve` holds open at once in all; default 10,000. */
  FORGE_SSE_MAX_STREAMS: positiveInteger('FORGE_SSE_MAX_STREAMS'),
  /** Seconds an event stream's client may leave what waits for it untaken before the stream is dropped; default 60. */
  FORGE_SSE_IDLE_TIMEOUT: positiveInteger('FORGE_SSE_IDLE_TIMEOUT'),
  /** Origins (exact, commas between) whose pages may call `forge serve` across origins; default none (same origin only). */
  FORGE_CORS_ORIGINS: z.string().optional(),
  FORGE_SERVE_HOST: z.string().trim().min(1, { message: 'FORGE_SERVE_HOST must name an address, e.g. 0.0.0.0 or 127.0.0.1' }).optional(),
  FORGE_SERVE_PORT: wholeNumber('FORGE_SERVE_PORT').refine((port) => port === undefined || port <= 65_535, { message: 'FORGE_SERVE_PORT must be a port (0-65535)' }),
  FORGE_WORKER_CONCURRENCY: positiveInteger('FORGE_WORKER_CONCURRENCY'),
  FORGE_WORKER_HEALTH_PORT: wholeNumber('FORGE_WORKER_HEALTH_PORT').refine((port) => port === undefined || port <= 65_535, { message: 'FORGE_WORKER_HEALTH_PORT must be a port (0-65535)' }),
  /** Tools whose every call needs an approval, by exact name, commas between. */
  FORGE_REQUIRE_APPROVAL: z.string().optional(),
  /** The folder the workspace tools (files, git, shell) work in; default FORGE_HOME/workspace. */
  FORGE_WORKSPACE: z.string().optional(),
  /** The optional tool groups in the catalog: files, git, shell, browser (commas between); default none. */
  FORGE_ENABLE_TOOLS: z.string().optional(),
  /** How shell commands are isolated: auto (a boundary when the host has one; none on a server means no shell), required, or off. */
  FORGE_SHELL_ISOLATION: z.enum(['auto', 'required', 'off', ''], { message: 'FORGE_SHELL_ISOLATION must be auto, required or off' }).optional(),
  /** Seconds a read-only tool call's result is served again to an identical call in the same run; 0 turns the cache off; default 300. */
  FORGE_TOOL_CACHE_TTL: wholeNumber('FORGE_TOOL_CACHE_TTL'),
  /** Seconds a tool call may run before it is stopped; default 120. */
  FORGE_TOOL_TIMEOUT: positiveInteger('FORGE_TOOL_TIMEOUT'),
  /** Timeouts of particular tools: `name=seconds`, commas between. */
  FORGE_TOOL_TIMEOUTS: z.string().optional(),
  /** Calls of one tool a run may make in any minute; 0 turns the limit off; default 60. */
  FORGE_TOOL_RATE_LIMIT: wholeNumber('FORGE_TOOL_RATE_LIMIT'),
  /** Tool calls a run may make in any minute, all tools together; 0 turns the limit off; default 300. */
  FORGE_RUN_TOOL_RATE_LIMIT: wholeNumber('FORGE_RUN_TOOL_RATE_LIMIT'),
});

export interface ForgeConfig {
  /** The data folder (runs, database, toolbox). */
  readonly home: string;
  readonly databaseUrl: string;
  /** The scaled mode's Redis (FORGE_REDIS_URL): runs go to `forge worker` processes through BullMQ and their events fan out through pub/sub; none: the embedded mode. */
  readonly redisUrl: string | undefined;
  /** The prefix of every Redis key and channel Forge uses (FORGE_REDIS_PREFIX, default `forge`), so installations can share a Redis. */
  readonly redisPrefix: string;
  /** The opt-in to a Redis without a password on an address that is not loopback (FORGE_REDIS_ALLOW_NO_PASSWORD=1). */
  readonly redisAllowNoPassword: boolean;
  /**
   * How long a worker's hold on a job lasts without renewal (FORGE_QUEUE_LOCK_MS, default 30,000): a
   * worker that dies leaves its runs to another within about twice it (the lock, then up to two checks half a lock apart). Shorter recovers
   * sooner; too short hands a run that is merely slow (an event loop blocked that long) to a second worker.
   */
  readonly queueLockMs: number;
  readonly allowHosts: string;
  readonly resolve: string;
  /** The key that encrypts secrets at rest (FORGE_SECRET_KEY); a generated key file is used without it. */
  readonly secretKey: string | undefined;
  /** The bearer token `forge mcp serve` requires of every client (FORGE_MCP_TOKEN); none when unset. */
  readonly mcpToken: string | undefined;
  /** The local opt-in to stdio MCP servers (FORGE_MCP_ALLOW_STDIO=1). */
  readonly mcpAllowStdio: boolean;
  readonly historyMessages: number | undefined;
  readonly historyTokens: number | undefined;
  /** How long a call waits for its approval, in milliseconds (FORGE_APPROVAL_TIMEOUT is in seconds). */
  readonly approvalTimeoutMs: number;
  /** Tools whose every call needs an approval (FORGE_REQUIRE_APPROVAL). */
  readonly requireApproval: readonly string[];
  /** The HTTP API's limits (`forge serve`). */
  readonly api: ApiLimits;
  /** Where `forge serve` listens when its flags do not say (FORGE_SERVE_HOST, FORGE_SERVE_PORT; default 127.0.0.1:7700). */
  readonly serve: { readonly host: string; readonly port: number };
  /** `forge worker`'s defaults (FORGE_WORKER_CONCURRENCY, default 50; FORGE_WORKER_HEALTH_PORT, default none). */
  readonly worker: { readonly concurrency: number; readonly healthPort: number | undefined };
  /** The folder the workspace tools work in, absolute (FORGE_WORKSPACE, default FORGE_HOME/workspace). */
  readonly workspace: string;
  /** The optional tool groups put in the catalog (FORGE_ENABLE_TOOLS). */
  readonly enabledToolGroups: readonly OptionalToolGroup[];
  /** How every run guards its tool calls (FORGE_TOOL_CACHE_TTL, FORGE_TOOL_TIMEOUT, FORGE_TOOL_TIMEOUTS, FORGE_TOOL_RATE_LIMIT, FORGE_RUN_TOOL_RATE_LIMIT). */
  readonly callGuards: CallGuardSettings;
  /** The whole environment, for vendor variables read by the model and search layers. */
  readonly env: Environment;
}

/**
 * Reads and validates Forge's settings from their layers (environment > ./forge.config.json > the
 * home's forge.config.json > defaults, see `resolveLayeredSettings`); errors name the variable, or the
 * file and key, and what it should look like.
 */
export function loadConfig(env: Environment, cwd: string = process.cwd()): ForgeConfig {
  return configFromEnvironment(resolveLayeredSettings(env, cwd).env, cwd);
}

/**
 * Forge's settings from `env` alone, no file consulted (for an environment built on purpose, such as
 * a demo's); without FORGE_HOME the home is `./.forge` under `cwd`.
 */
export function configFromEnvironment(env: Environment, cwd: string = process.cwd()): ForgeConfig {
  const parsed = forgeEnvironmentSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigurationError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const settings = parsed.data;
  const home = path.resolve(cwd, settings.FORGE_HOME?.trim() || '.forge');
  const databaseUrl = databaseUrlFromEnv(env, home);
  return {
    home,
    databaseUrl,
    redisUrl: settings.FORGE_REDIS_URL?.trim() || undefined,
    redisPrefix: settings.FORGE_REDIS_PREFIX ?? 'forge',
    redisAllowNoPassword: settings.FORGE_REDIS_ALLOW_NO_PASSWORD === '1',
    queueLockMs: settings.FORGE_QUEUE_LOCK_MS ?? 30_000,
    allowHosts: settings.FORGE_ALLOW_HOSTS ?? '',
    resolve: settings.FORGE_RESOLVE ?? '',
    secretKey: settings.FORGE_SECRET_KEY?.trim() || undefined,
    mcpToken: settings.FORGE_MCP_TOKEN?.trim() || undefined,
    mcpAllowStdio: settings.FORGE_MCP_ALLOW_STDIO === '1',
    historyMessages: settings.FORGE_HISTORY_MESSAGES,
    historyTokens: settings.FORGE_HISTORY_TOKENS,
    approvalTimeoutMs: (settings.FORGE_APPROVAL_TIMEOUT ?? 3600) * 1000,
    requireApproval: (settings.FORGE_REQUIRE_APPROVAL ?? '').split(',').map((name) => name.trim()).filter((name) => name !== ''),
    api: {
      maxBodyBytes: settings.FORGE_API_MAX_BODY_BYTES ?? 1_000_000,
      rateLimitPerMinute: settings.FORGE_API_RATE_LIMIT ?? 120,
      timeoutMs: (settings.FORGE_API_TIMEOUT ?? 60) * 1000,
      corsOrigins: parseOrigins(settings.FORGE_CORS_ORIGINS ?? ''),
      eventStreams: {
        ...DEFAULT_EVENT_STREAM_LIMITS,
        maxPerAccount: settings.FORGE_SSE_MAX_STREAMS_PER_ACCOUNT ?? DEFAULT_EVENT_STREAM_LIMITS.maxPerAccount,
        maxTotal: settings.FORGE_SSE_MAX_STREAMS ?? DEFAULT_EVENT_STREAM_LIMITS.maxTotal,
        idleTimeoutMs: (settings.FORGE_SSE_IDLE_TIMEOUT ?? DEFAULT_EVENT_STREAM_LIMITS.idleTimeoutMs / 1000) * 1000,
      },
    },
    serve: { host: settings.FORGE_SERVE_HOST ?? '127.0.0.1', port: settings.FORGE_SERVE_PORT ?? 7700 },
    worker: { concurrency: settings.FORGE_WORKER_CONCURRENCY ?? 50, healthPort: settings.FORGE_WORKER_HEALTH_PORT },
    workspace: path.resolve(cwd, settings.FORGE_WORKSPACE?.trim() || path.join(home, 'workspace')),
    enabledToolGroups: parseToolGroups(settings.FORGE_ENABLE_TOOLS ?? ''),
    callGuards: {
      ...DEFAULT_CALL_GUARD_SETTINGS,
      ...(settings.FORGE_TOOL_CACHE_TTL === undefined ? {} : { cacheTtlMs: settings.FORGE_TOOL_CACHE_TTL * 1000 }),
      ...(settings.FORGE_TOOL_TIMEOUT === undefined ? {} : { timeoutMs: settings.FORGE_TOOL_TIMEOUT * 1000 }),
      toolTimeoutsMs: parseToolTimeouts(settings.FORGE_TOOL_TIMEOUTS ?? ''),
      ...(settings.FORGE_TOOL_RATE_LIMIT === undefined ? {} : { toolCallsPerMinute: settings.FORGE_TOOL_RATE_LIMIT }),
      ...(settings.FORGE_RUN_TOOL_RATE_LIMIT === undefined ? {} : { runCallsPerMinute: settings.FORGE_RUN_TOOL_RATE_LIMIT }),
    },
    env,
  };
}

/** FORGE_TOOL_TIMEOUTS: `name=seconds` entries, commas between, as milliseconds by tool name. */
function parseToolTimeouts(text: string): Map<string, number> {
  const timeouts = new Map<string, number>();
  for (const entry of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const match = /^([^=\s]+)\s*=\s*(\d+)$/.exec(entry);
    const seconds = match === null ? 0 : Number(match[2]);
    if (match === null || seconds < 1) {
      throw new ConfigurationError('FORGE_TOOL_TIMEOUTS', `"${entry.slice(0, 80)}" is not a tool timeout.`, 'Write each as name=seconds (a positive whole number), commas between, e.g. read_url=30,request_tool=600');
    }
    timeouts.set(match[1]!, seconds * 1000);
  }
  return timeouts;
}

function parseToolGroups(text: string): OptionalToolGroup[] {
  const names = text.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  const unknown = names.find((name) => !(OPTIONAL_TOOL_GROUPS as readonly string[]).includes(name));
  if (unknown !== undefined) throw new ConfigurationError('FORGE_ENABLE_TOOLS', `"${unknown}" is not a tool group; choose among ${OPTIONAL_TOOL_GROUPS.join(', ')}, commas between.`);
  return [...new Set(names)] as OptionalToolGroup[];
}
