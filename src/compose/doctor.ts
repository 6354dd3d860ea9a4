import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateText } from 'ai';
import { describeError, type ToolContext } from '../core/index.js';
import { EnvironmentCredentials, defaultModelSlug, readModelKeys, resolveModel } from '../llm/index.js';
import { maskUrlCredentials } from '../security/redaction/index.js';
import { openStore } from '../adapters/store/index.js';
import { closeIdleSandboxWorkers, runInSandbox } from '../synthesis/sandbox/index.js';
import { searchConfigFromEnv, selectSearchProvider, type SearchProvider } from '../tools/builtins/index.js';
import { createGuardedFetch, guardedFetchOptionsFromEnv } from '../security/index.js';
import { loadConfig, type Environment, type ForgeConfig } from '../config/forge-config.js';

export type DoctorCheckName = 'settings' | 'guard' | 'store' | 'sandbox' | 'model' | 'search';

/**
 * One check's verdict: `fix` says what to change when it did not pass. `warning` is a part that is not
 * set up but is optional (Forge works without it); it does not fail the doctor.
 */
export interface DoctorCheck {
  readonly check: DoctorCheckName;
  readonly status: 'ok' | 'warning' | 'failed' | 'skipped';
  readonly detail: string;
  readonly fix?: string;
}

/** The parts a check exercises, replaceable so each failure can be tested. */
export interface DoctorParts {
  /** Runs a one-line module in the sandbox and returns what it returned. */
  readonly runSandbox?: () => Promise<unknown>;
  /** How long the model and the search may take to answer; default 20 s. */
  readonly timeoutMs?: number;
}

const SANDBOX_PROBE = 'export default async function run(input) { return input.n + 1; }';

async function defaultSandboxRun(): Promise<unknown> {
  try {
    const result = await runInSandbox({ source: SANDBOX_PROBE, input: { n: 41 }, capabilities: [] });
    return result.ok ? result.value : result;
  } finally {
    await closeIdleSandboxWorkers();
  }
}

function failed(check: DoctorCheckName, error: unknown, fix: string): DoctorCheck {
  const info = describeError(error);
  return { check, status: 'failed', detail: info.message, fix: info.hint ?? fix };
}

function checkGuard(config: ForgeConfig): DoctorCheck {
  try {
    const options = guardedFetchOptionsFromEnv(config.env);
    const allowed = options.allowHosts ?? [];
    const pinned = options.resolve ?? [];
    const detail = allowed.length === 0 && pinned.length === 0 ? 'closed: private and loopback addresses are refused, nothing let through' : `let through: ${allowed.join(', ') || 'none'}; pinned names: ${pinned.length}`;
    return { check: 'guard', status: 'ok', detail };
  } catch (error) {
    return failed('guard', error, 'Fix allow_hosts / resolve with forge config set (host:port entries).');
  }
}

async function checkStore(config: ForgeConfig): Promise<DoctorCheck> {
  const fix = `Make ${config.home} a folder you can write, or set another home: FORGE_HOME=<folder> (or "home" in ./forge.config.json).`;
  try {
    mkdirSync(config.home, { recursive: true });
    const probe = path.join(config.home, `.doctor-${randomBytes(4).toString('hex')}`);
    writeFileSync(probe, 'ok');
    rmSync(probe);
  } catch (error) {
    return { check: 'store', status: 'failed', detail: `cannot write in the Forge home ${config.home} (${(error as NodeJS.ErrnoException).code ?? describeError(error).message})`, fix };
  }
  try {
    const store = await openStore({ url: config.databaseUrl });
    await store.close();
    return { check: 'store', status: 'ok', detail: `home ${config.home} writable; database ${maskUrlCredentials(config.databaseUrl)} opens` };
  } catch (error) {
    return failed('store', error, 'Fix database_url (forge config set database_url <path>) or unset it to use forge.db in the home.');
  }
}

async function checkSandbox(parts: DoctorParts): Promise<DoctorCheck> {
  const fix = 'The sandbox runs in a worker thread with QuickJS (quickjs-emscripten): reinstall dependencies (npm install) and check that Node is 20.18 or newer.';
  try {
    const value = await (parts.runSandbox ?? defaultSandboxRun)();
    if (value === 42) return { check: 'sandbox', status: 'ok', detail: 'a module ran in QuickJS in a worker and returned the right answer' };
    return { check: 'sandbox', status: 'failed', detail: `the probe module returned ${JSON.stringify(value)} instead of 42`, fix };
  } catch (error) {
    return { check: 'sandbox', status: 'failed', detail: `the sandbox did not start: ${describeError(error).message}`, fix };
  }
}

function unreachableFix(slug: string): string {
  const provider = slug.split(':')[0];
  const variable = { openai: 'OPENAI_BASE_URL', anthropic: 'ANTHROPIC_BASE_URL', openrouter: 'OPENROUTER_BASE_URL', ollama: 'OLLAMA_HOST', 'openai-compatible': 'the URL after @ in the slug' }[provider ?? ''];
  return `Check that the model's server is running and reachable${variable === undefined ? '' : ` (${variable})`}, and that its key is valid; or choose another model: forge config set model <slug>.`;
}

async function checkModel(config: ForgeConfig, timeoutMs: number): Promise<DoctorCheck> {
  let slug: string;
  let model;
  try {
    const keys = await readModelKeys(new EnvironmentCredentials(config.env));
    slug = defaultModelSlug(config.env, undefined, keys);
    model = resolveModel(slug, config.env, 'FORGE_MODEL', keys);
  } catch (error) {
    return failed('model', error, 'Configure a model: forge init --model <slug>, or set a vendor key (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY).');
  }
  try {
    const result = await generateText({ model: model.model, prompt: 'Reply with the single word OK.', maxOutputTokens: 16, maxRetries: 0, abortSignal: AbortSignal.timeout(timeoutMs) });
    return { check: 'model', status: 'ok', detail: `${slug} answered (${result.usage.inputTokens ?? 0}/${result.usage.outputTokens ?? 0} tokens)` };
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    const detail = `${slug} did not answer: ${status === undefined ? describeError(error).message : `HTTP ${status}`}`;
    if (status === 401 || status === 403) return { check: 'model', status: 'failed', detail, fix: `The key was refused: check the vendor key for ${slug} (forge config set <vendor>_api_key …).` };
    return { check: 'model', status: 'failed', detail, fix: unreachableFix(slug) };
  }
}

/**
 * A direct health check of the search provider: one query through its client and the SSRF guard, as
 * `web_search` would send it, but no tool runs (a tool runs only inside a recorded run, through dispatch).
 */
async function checkSearch(config: ForgeConfig, timeoutMs: number): Promise<DoctorCheck> {
  let provider: SearchProvider;
  let fetch;
  try {
    const search = searchConfigFromEnv(config.env);
    if (search.provider === undefined) {
      return { check: 'search', status: 'warning', detail: 'no search provider is set (optional: without one, web_search is not offered)', fix: 'Set one: forge init --search searxng --searxng-url <url> (a SearXNG on your network also needs allow_hosts host:port), or --search tavily / brave with its key.' };
    }
    provider = selectSearchProvider(search);
    fetch = createGuardedFetch(guardedFetchOptionsFromEnv(config.env));
  } catch (error) {
    return failed('search', error, 'Fix the search settings: forge config set search searxng|tavily|brave.');
  }
  const context: ToolContext = { runId: 'doctor', callId: 'doctor', signal: AbortSignal.timeout(timeoutMs), fetch, utilityModel: undefined };
  try {
    const hits = await provider.search({ query: 'forge doctor', maxResults: 5 }, context);
    return { check: 'search', status: 'ok', detail: `the search answered (${hits.length} results)` };
  } catch (error) {
    const info = describeError(error);
    const guarded = /private|loopback|blocked|refused to connect|not allowed/i.test(info.message);
    const fix = guarded
      ? 'The SSRF guard refused the search engine\'s address: list it as host:port in allow_hosts (forge config set allow_hosts <host:port>).'
      : (info.hint ?? 'Check that the search engine is running and its URL or key is right (forge config list).');
    return { check: 'search', status: 'failed', detail: `the search did not answer: ${info.message}`, fix };
  }
}

/**
 * Checks the configuration end to end, each check independent of the others' results: the settings
 * load, the SSRF guard's lists parse, the home and database are writable, the sandbox runs a module,
 * the model answers one short prompt and the search engine answers one query (both direct health checks
 * through their real clients, never a tool's `execute`; the search through the guard). A check that fails says what to change.
 */
/** Whether the doctor passes: nothing failed (warnings name optional parts that are not set up). */
export function doctorPassed(checks: readonly DoctorCheck[]): boolean {
  return checks.every((check) => check.status !== 'failed' && check.status !== 'skipped');
}

export async function runDoctor(env: Environment, cwd: string, parts: DoctorParts = {}): Promise<DoctorCheck[]> {
  let config: ForgeConfig;
  try {
    config = loadConfig(env, cwd);
  } catch (error) {
    const settings = failed('settings', error, 'Fix the setting it names (forge config list shows where each value comes from).');
    const skipped = (['guard', 'store', 'sandbox', 'model', 'search'] as const).map((check): DoctorCheck => ({ check, status: 'skipped', detail: 'the settings do not load' }));
    return [settings, ...skipped];
  }
  const timeoutMs = parts.timeoutMs ?? 20_000;
  return [
    { check: 'settings', status: 'ok', detail: `home ${config.home}` },
    checkGuard(config),
    await checkStore(config),
    await checkSandbox(parts),
    await checkModel(config, timeoutMs),
    await checkSearch(config, timeoutMs),
  ];
}
