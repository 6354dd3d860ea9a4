import { z } from 'zod';

/**
 * How a setting is written in `forge.config.json`; the environment always carries text. `count` is a
 * positive whole number, `whole` one that may be 0 (which turns the setting's limit off).
 */
type SettingKind = 'text' | 'list' | 'switch' | 'count' | 'whole' | 'url';

interface SettingDefinition {
  /** The environment variable the key mirrors. */
  readonly variable: string;
  readonly kind: SettingKind;
  /** What Forge does when neither the environment nor a file sets it. */
  readonly default: string;
  readonly description: string;
  /** Its value is never printed (`forge config list|get` show it masked). */
  readonly secret?: true;
}

/**
 * Every setting of `forge.config.json`, by key, with the environment variable it mirrors. A key set in
 * the environment wins over the project's file, which wins over the home's file, which wins over the
 * default. `FORGE_DEBUG` and `FORGE_CASSETTE_RECORD` are switches for one command and stay
 * environment-only.
 */
export const CONFIG_SETTINGS = {
  home: { variable: 'FORGE_HOME', kind: 'text', default: '~/.forge (./.forge when one exists)', description: 'the data folder; only a project file may set it' },
  model: { variable: 'FORGE_MODEL', kind: 'text', default: 'the first vendor with a key', description: 'model slug for forge run, e.g. openai:gpt-4.1-mini, ollama:llama3.2' },
  test_model: { variable: 'FORGE_TEST_MODEL', kind: 'text', default: 'model', description: 'the tester model of tool synthesis' },
  rescue_model: { variable: 'FORGE_RESCUE_MODEL', kind: 'text', default: "the run's model", description: 'the small model that may choose among candidates in a guided skill replay' },
  openai_api_key: { variable: 'OPENAI_API_KEY', kind: 'text', default: 'none', description: 'OpenAI key', secret: true },
  openai_base_url: { variable: 'OPENAI_BASE_URL', kind: 'url', default: 'https://api.openai.com/v1', description: 'OpenAI-compatible base URL including /v1' },
  anthropic_api_key: { variable: 'ANTHROPIC_API_KEY', kind: 'text', default: 'none', description: 'Anthropic key', secret: true },
  anthropic_base_url: { variable: 'ANTHROPIC_BASE_URL', kind: 'url', default: 'https://api.anthropic.com', description: 'Anthropic host root' },
  openrouter_api_key: { variable: 'OPENROUTER_API_KEY', kind: 'text', default: 'none', description: 'OpenRouter key', secret: true },
  openrouter_base_url: { variable: 'OPENROUTER_BASE_URL', kind: 'url', default: 'https://openrouter.ai/api/v1', description: 'OpenRouter base URL' },
  openai_compatible_api_key: { variable: 'FORGE_OPENAI_COMPATIBLE_API_KEY', kind: 'text', default: 'none', description: 'key of an openai-compatible:<model>@<url> server', secret: true },
  openai_compatible_base_url: { variable: 'FORGE_OPENAI_COMPATIBLE_BASE_URL', kind: 'url', default: 'none', description: 'base URL of openai-compatible:<model> slugs without @<url>' },
  ollama_host: { variable: 'OLLAMA_HOST', kind: 'text', default: '127.0.0.1:11434', description: 'where Ollama listens' },
  ollama_base_url: { variable: 'OLLAMA_BASE_URL', kind: 'url', default: 'http://127.0.0.1:11434/v1', description: "Ollama's OpenAI-compatible base URL" },
  search: { variable: 'FORGE_SEARCH', kind: 'text', default: 'inferred from the URL or key set', description: 'web search provider: searxng, tavily or brave' },
  searxng_url: { variable: 'FORGE_SEARXNG_URL', kind: 'url', default: 'none', description: 'base URL of a SearXNG with the JSON format enabled' },
  tavily_api_key: { variable: 'TAVILY_API_KEY', kind: 'text', default: 'none', description: 'Tavily key', secret: true },
  tavily_base_url: { variable: 'FORGE_TAVILY_BASE_URL', kind: 'url', default: 'https://api.tavily.com', description: 'Tavily base URL' },
  brave_api_key: { variable: 'BRAVE_API_KEY', kind: 'text', default: 'none', description: 'Brave Search key', secret: true },
  brave_base_url: { variable: 'FORGE_BRAVE_BASE_URL', kind: 'url', default: 'https://api.search.brave.com', description: 'Brave Search base URL' },
  database_url: { variable: 'FORGE_DATABASE_URL', kind: 'text', default: 'file:<home>/forge.db', description: 'the store: a libSQL file path or file: URL, :memory:, or postgres://…' },
  redis_url: { variable: 'FORGE_REDIS_URL', kind: 'text', default: 'none (embedded mode)', description: 'the scaled mode: Redis for the job queue (BullMQ) and event fan-out; forge serve queues runs for forge worker processes', secret: true },
  queue_lock_ms: { variable: 'FORGE_QUEUE_LOCK_MS', kind: 'count', default: '30000', description: 'how long a worker holds a job without renewing it; a dead worker\'s runs go to another after about twice this' },
  redis_allow_no_password: { variable: 'FORGE_REDIS_ALLOW_NO_PASSWORD', kind: 'switch', default: 'false', description: 'let forge serve and forge worker use a Redis without a password on an address that is not loopback' },
  redis_prefix: { variable: 'FORGE_REDIS_PREFIX', kind: 'text', default: 'forge', description: 'the prefix of every Redis key and channel Forge uses' },
  allow_hosts: { variable: 'FORGE_ALLOW_HOSTS', kind: 'list', default: 'empty', description: 'host:port pairs the SSRF guard lets through although they resolve to private addresses' },
  resolve: { variable: 'FORGE_RESOLVE', kind: 'list', default: 'empty', description: 'host:port:address entries that pin a name to an address without DNS' },
  secret_key: { variable: 'FORGE_SECRET_KEY', kind: 'text', default: 'a generated <home>/secret.key', description: 'the key that encrypts stored secrets (64 hex digits or base64)', secret: true },
  mcp_token: { variable: 'FORGE_MCP_TOKEN', kind: 'text', default: 'none', description: 'the bearer token forge mcp serve requires of every client', secret: true },
  admin_password: { variable: 'FORGE_ADMIN_PASSWORD', kind: 'text', default: 'none', description: 'the bearer token forge serve requires of every request (needed beyond loopback)', secret: true },
  auth: { variable: 'FORGE_AUTH', kind: 'text', default: 'accounts once one exists, else password when set, else none', description: 'how forge serve authenticates: none (loopback only), password or accounts' },
  open_signup: { variable: 'FORGE_OPEN_SIGNUP', kind: 'switch', default: 'false', description: 'let anyone make an account on forge serve' },
  session_key: { variable: 'FORGE_SESSION_KEY', kind: 'text', default: 'a generated <home>/session.key', description: 'the key that signs sign-in tokens (servers sharing sign-ins share it)', secret: true },
  api_max_body_bytes: { variable: 'FORGE_API_MAX_BODY_BYTES', kind: 'count', default: '1000000', description: 'the largest request body forge serve reads, in bytes' },
  api_rate_limit: { variable: 'FORGE_API_RATE_LIMIT', kind: 'count', default: '120', description: 'requests a minute one caller may make of forge serve (FORGE_API_RATE_LIMIT=0: no limit)' },
  api_timeout: { variable: 'FORGE_API_TIMEOUT', kind: 'count', default: '60', description: 'seconds a forge serve request may take before it is answered 503' },
  sse_max_streams_per_account: { variable: 'FORGE_SSE_MAX_STREAMS_PER_ACCOUNT', kind: 'count', default: '100', description: 'run event streams one account may hold open on forge serve at once' },
  sse_max_streams: { variable: 'FORGE_SSE_MAX_STREAMS', kind: 'count', default: '10000', description: 'run event streams forge serve holds open at once in all' },
  sse_idle_timeout: { variable: 'FORGE_SSE_IDLE_TIMEOUT', kind: 'count', default: '60', description: 'seconds an event stream may hold data its client does not take before it is dropped' },
  serve_host: { variable: 'FORGE_SERVE_HOST', kind: 'text', default: '127.0.0.1', description: 'the address forge serve listens on when --host is not given' },
  serve_port: { variable: 'FORGE_SERVE_PORT', kind: 'count', default: '7700', description: 'the port forge serve listens on when --port is not given (0 picks a free one)' },
  worker_concurrency: { variable: 'FORGE_WORKER_CONCURRENCY', kind: 'count', default: '50', description: 'runs one forge worker runs at once when --concurrency is not given' },
  worker_health_port: { variable: 'FORGE_WORKER_HEALTH_PORT', kind: 'count', default: 'none', description: 'the 127.0.0.1 port where forge worker answers GET /health when --health-port is not given' },
  cors_origins: { variable: 'FORGE_CORS_ORIGINS', kind: 'list', default: 'none (same origin only)', description: 'origins whose pages may call forge serve, commas between' },
  mcp_allow_stdio: { variable: 'FORGE_MCP_ALLOW_STDIO', kind: 'switch', default: 'false', description: 'let the local CLI start stdio MCP servers' },
  history_messages: { variable: 'FORGE_HISTORY_MESSAGES', kind: 'count', default: '40', description: 'how many messages of a conversation are sent again' },
  history_tokens: { variable: 'FORGE_HISTORY_TOKENS', kind: 'count', default: '24000', description: 'how many tokens of a conversation are sent again' },
  approval_timeout: { variable: 'FORGE_APPROVAL_TIMEOUT', kind: 'count', default: '3600', description: 'seconds a call waits for its approval' },
  require_approval: { variable: 'FORGE_REQUIRE_APPROVAL', kind: 'list', default: 'empty', description: 'tools whose every call needs an approval, by exact name' },
  workspace: { variable: 'FORGE_WORKSPACE', kind: 'text', default: '<home>/workspace', description: 'the folder the workspace tools (files, git, shell) work in' },
  git_author_name: { variable: 'FORGE_GIT_AUTHOR_NAME', kind: 'text', default: 'Forge', description: 'the author name of commits the git_commit tool makes' },
  git_author_email: { variable: 'FORGE_GIT_AUTHOR_EMAIL', kind: 'text', default: 'forge@localhost', description: 'the author email of commits the git_commit tool makes' },
  chromium_path: { variable: 'FORGE_CHROMIUM_PATH', kind: 'text', default: '/usr/bin/chromium or another usual install', description: 'the Chromium or Chrome the browser tools run' },
  enable_tools: { variable: 'FORGE_ENABLE_TOOLS', kind: 'list', default: 'none', description: 'optional tool groups in the catalog: files, git, shell, browser' },
  shell_isolation: { variable: 'FORGE_SHELL_ISOLATION', kind: 'text', default: 'auto', description: 'shell commands in an isolation boundary (bwrap, else unshare): auto (a server without one refuses the shell), required, or off' },
  tool_cache_ttl: { variable: 'FORGE_TOOL_CACHE_TTL', kind: 'whole', default: '300', description: 'seconds a read-only tool call\'s result is served again to an identical call in the same run (0: no cache)' },
  tool_timeout: { variable: 'FORGE_TOOL_TIMEOUT', kind: 'count', default: '120', description: 'seconds a tool call may run before it is stopped' },
  tool_timeouts: { variable: 'FORGE_TOOL_TIMEOUTS', kind: 'list', default: 'none', description: 'timeouts of particular tools as name=seconds, e.g. read_url=30,request_tool=600' },
  tool_rate_limit: { variable: 'FORGE_TOOL_RATE_LIMIT', kind: 'whole', default: '60', description: 'calls of one tool a run may make in any minute (0: no limit)' },
  run_tool_rate_limit: { variable: 'FORGE_RUN_TOOL_RATE_LIMIT', kind: 'whole', default: '300', description: 'tool calls a run may make in any minute, all tools together (0: no limit)' },
} as const satisfies Record<string, SettingDefinition>;

export type ConfigKey = keyof typeof CONFIG_SETTINGS;

export const CONFIG_KEYS = Object.keys(CONFIG_SETTINGS) as ConfigKey[];

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_SETTINGS, key);
}

export function settingOf(key: ConfigKey): SettingDefinition {
  return CONFIG_SETTINGS[key];
}

/** The current version of the file's format, written by `forge init` and `forge config set`. */
export const CONFIG_FILE_VERSION = 1;

const valueSchemas: Record<SettingKind, z.ZodType> = {
  text: z.string().trim().min(1, 'must be a non-empty string'),
  url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }),
  list: z.union([z.array(z.string().trim().min(1, 'entries must be non-empty strings')), z.string()], { message: 'must be a list of strings or one comma-separated string' }),
  switch: z.boolean({ message: 'must be true or false' }),
  count: z.number({ message: 'must be a positive whole number' }).int('must be a positive whole number').positive('must be a positive whole number'),
  whole: z.number({ message: 'must be a whole number (0 or more)' }).int('must be a whole number (0 or more)').nonnegative('must be a whole number (0 or more)'),
};

/**
 * `forge.config.json`: a JSON object with an optional `version` (1) and any of the keys of
 * `CONFIG_SETTINGS`, each described by the setting it mirrors. Unknown keys are refused (a typo would
 * otherwise be silently ignored).
 */
export const configFileSchema = z
  .strictObject({
    $schema: z.string().optional().describe('a JSON schema URL or path for editors; ignored by Forge'),
    version: z.literal(CONFIG_FILE_VERSION, { message: `must be ${CONFIG_FILE_VERSION}` }).optional().describe('the format version of this file'),
    ...(Object.fromEntries(
      CONFIG_KEYS.map((key) => {
        const setting = settingOf(key);
        return [key, valueSchemas[setting.kind].optional().describe(`${setting.description} (mirrors ${setting.variable}; default: ${setting.default})`)];
      }),
    ) as Record<ConfigKey, z.ZodOptional<z.ZodType>>),
  })
  .describe('Forge configuration (forge.config.json) in the Forge home or the project folder.');

export type ConfigFile = { version?: number } & Partial<Record<ConfigKey, string | number | boolean | readonly string[]>>;

/** A file value as the environment would carry it. */
export function environmentText(value: string | number | boolean | readonly string[]): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/** Text from the command line (`forge config set`, `forge init`) as the value a file holds for `key`. */
export function fileValueFromText(key: ConfigKey, text: string): string | number | boolean | readonly string[] {
  const kind: SettingKind = settingOf(key).kind;
  if (kind === 'switch') return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
  if (kind === 'count' || kind === 'whole') return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text;
  if (kind === 'list') return text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  return text;
}
