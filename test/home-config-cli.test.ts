import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgeEnvironmentSchema } from '../src/compose/index.js';
import { CONFIG_SETTINGS } from '../src/config/index.js';
import { FORGE_BIN, runCli } from './support/built-cli.js';

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'forge-home-config-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function folder(name: string): Promise<string> {
  const created = path.join(scratch, name);
  await mkdir(created, { recursive: true });
  return created;
}

describe('forge home', () => {
  it('is ~/.forge by default, ./.forge when it exists, FORGE_HOME when set, and says why', async () => {
    const user = await folder('user-a');
    const project = await folder('project-a');
    const home = async (env: Record<string, string>) => JSON.parse((await runCli(['home', '--json'], { HOME: user, ...env }, { cwd: project })).stdout) as { path: string; source: string; reason: string };

    expect(await home({})).toMatchObject({ path: path.join(user, '.forge'), source: 'user-default' });
    await mkdir(path.join(project, '.forge'));
    expect(await home({})).toMatchObject({ path: path.join(project, '.forge'), source: 'project-folder' });
    expect(await home({ FORGE_HOME: path.join(scratch, 'explicit') })).toMatchObject({ path: path.join(scratch, 'explicit'), source: 'environment', reason: 'FORGE_HOME is set in the environment' });
    const plain = await runCli(['home'], { HOME: user }, { cwd: project });
    expect(plain.stdout).toContain(`a project-local .forge folder exists in ${project}`);
  });
});

describe('forge config and forge init', () => {
  it('mirrors every Forge environment variable', () => {
    const mirrored = Object.values(CONFIG_SETTINGS).map((setting) => setting.variable);
    for (const variable of Object.keys(forgeEnvironmentSchema.shape)) expect(mirrored).toContain(variable);
  });

  it('layers environment > project file > home file > defaults, shows each source, and never prints a secret', async () => {
    const user = await folder('user-b');
    const project = await folder('project-b');
    const env = { HOME: user };
    const init = await runCli(['init', '--yes', '--model', 'openai:gpt-4.1-mini', '--search', 'searxng', '--searxng-url', 'http://127.0.0.1:8888', '--allow-hosts', '127.0.0.1:8888', '--json'], env, { cwd: project });
    expect(init.code).toBe(0);
    const homeFile = path.join(user, '.forge', 'forge.config.json');
    expect(JSON.parse(init.stdout)).toEqual({ file: homeFile, set: ['model', 'search', 'searxng_url', 'allow_hosts'], agents: ['researcher', 'release-notes', 'toolsmith'] });
    expect(JSON.parse(await readFile(homeFile, 'utf8'))).toEqual({ version: 1, model: 'openai:gpt-4.1-mini', search: 'searxng', searxng_url: 'http://127.0.0.1:8888', allow_hosts: ['127.0.0.1:8888'] });
    expect((await stat(homeFile)).mode & 0o777).toBe(0o600);

    const secret = 'sk-live-0123456789abcdef';
    expect((await runCli(['config', 'set', 'openai_api_key', secret], env, { cwd: project })).stdout).not.toContain(secret);
    // No project file yet: the list says so rather than listing it as a file in use.
    const beforeProjectFile = JSON.parse((await runCli(['config', 'list', '--json'], env, { cwd: project })).stdout) as { project_file_exists: boolean; home_file_exists: boolean };
    expect(beforeProjectFile).toMatchObject({ project_file_exists: false, home_file_exists: true });
    expect((await runCli(['config', 'list'], env, { cwd: project })).stdout).toContain(`${path.join(project, 'forge.config.json')} (project, not there yet)`);
    expect((await runCli(['config', 'set', 'model', 'anthropic:claude-sonnet-4-6', '--project'], env, { cwd: project })).code).toBe(0);

    const listed = await runCli(['config', 'list', '--json'], { ...env, FORGE_SEARXNG_URL: 'http://127.0.0.1:9999' }, { cwd: project });
    expect(listed.stdout).not.toContain(secret);
    expect(JSON.parse(listed.stdout)).toMatchObject({ project_file_exists: true, home_file_exists: true });
    const settings = new Map((JSON.parse(listed.stdout) as { settings: { key: string; value: string | null; source: string }[] }).settings.map((entry) => [entry.key, entry]));
    expect(settings.get('model')).toMatchObject({ value: 'anthropic:claude-sonnet-4-6', source: 'project-file' });
    expect(settings.get('search')).toMatchObject({ value: 'searxng', source: 'home-file' });
    expect(settings.get('searxng_url')).toMatchObject({ value: 'http://127.0.0.1:9999', source: 'environment' });
    expect(settings.get('openai_api_key')).toMatchObject({ value: '********', source: 'home-file' });
    expect(settings.get('history_tokens')).toMatchObject({ value: null, source: 'default' });
    const plain = await runCli(['config', 'list'], env, { cwd: project });
    expect(plain.stdout).not.toContain(secret);
    expect(plain.stdout).toMatch(/model\s+anthropic:claude-sonnet-4-6\s+\[project file /);
    expect((await runCli(['config', 'get', 'openai_api_key'], env, { cwd: project })).stdout).toBe('********\n');
    expect((await runCli(['config', 'get', 'model'], { ...env, FORGE_MODEL: 'ollama:llama3.2' }, { cwd: project })).stdout).toBe('ollama:llama3.2\n');
  });

  it('refuses a bad file or value, naming the file and the key', async () => {
    const user = await folder('user-c');
    const project = await folder('project-c');
    const file = path.join(project, 'forge.config.json');
    await writeFile(file, JSON.stringify({ modle: 'openai:gpt-4.1-mini' }));
    const unknown = await runCli(['runs', 'list', '--json'], { HOME: user }, { cwd: project });
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({ name: 'ConfigFileError', message: `${file}: "modle": is not a setting.` });
    await writeFile(file, JSON.stringify({ history_tokens: 'many' }));
    const wrongKind = await runCli(['config', 'list'], { HOME: user }, { cwd: project });
    expect(wrongKind.stderr).toContain(`${file}: "history_tokens": must be a positive whole number.`);
    await writeFile(file, '{ not json');
    expect((await runCli(['home'], { HOME: user }, { cwd: project })).stderr).toContain(`${file}: is not valid JSON`);
    await rm(file);
    const badValue = await runCli(['config', 'set', 'searxng_url', 'not-a-url'], { HOME: user }, { cwd: project });
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain('"searxng_url": must be an http(s) URL.');
    expect((await runCli(['config', 'get', 'colour'], { HOME: user }, { cwd: project })).stderr).toContain('colour: is not a setting.');
  });
});

interface DoctorReport {
  ok: boolean;
  checks: { check: string; status: string; detail: string; fix?: string }[];
}

describe('forge doctor', () => {
  let modelServer: Server;
  let modelUrl: string;
  let searchServer: Server;
  let searchHost: string;

  beforeAll(async () => {
    // A model server that refuses every key, and a SearXNG-format search engine, on loopback.
    modelServer = createServer((request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad key', type: 'invalid_request_error' } }));
    });
    searchServer = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ url: 'https://example.org/', title: 'Example', content: 'an example' }] }));
    });
    await Promise.all([new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve)), new Promise<void>((resolve) => searchServer.listen(0, '127.0.0.1', resolve))]);
    modelUrl = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1`;
    searchHost = `127.0.0.1:${(searchServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await Promise.all([new Promise((resolve) => modelServer.close(resolve)), new Promise((resolve) => searchServer.close(resolve))]);
  });

  async function doctor(env: Record<string, string>): Promise<Map<string, DoctorReport['checks'][number]> & { code?: number | null }> {
    const user = await mkdtemp(path.join(scratch, 'doctor-'));
    const result = await runCli(['doctor', '--json'], { HOME: user, FORGE_HOME: path.join(user, 'home'), ...env }, { cwd: user, timeoutMs: 60_000 });
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(result.code).toBe(report.ok ? 0 : 1);
    return Object.assign(new Map(report.checks.map((check) => [check.check, check])), { code: result.code });
  }

  const working = () => ({ FORGE_SEARCH: 'searxng', FORGE_SEARXNG_URL: `http://${searchHost}`, FORGE_ALLOW_HOSTS: searchHost });

  it('passes guard, store, sandbox and search when they work, and names the model fix when there is no model', async () => {
    const checks = await doctor(working());
    for (const name of ['settings', 'guard', 'store', 'sandbox', 'search']) expect(checks.get(name)?.status, name).toBe('ok');
    expect(checks.get('search')?.detail).toBe('the search answered (1 results)');
    expect(checks.get('model')).toMatchObject({ status: 'failed', fix: expect.stringContaining('FORGE_MODEL') });
  }, 60_000);

  it('names the key when the model refuses it', async () => {
    const checks = await doctor({ ...working(), OPENAI_API_KEY: 'sk-wrong', OPENAI_BASE_URL: modelUrl, FORGE_ALLOW_HOSTS: searchHost });
    expect(checks.get('model')).toMatchObject({ status: 'failed', detail: 'openai:gpt-4.1-mini did not answer: HTTP 401', fix: expect.stringContaining('The key was refused') });
  }, 60_000);

  it('names allow_hosts when the guard refuses the search engine, and the provider when none is set', async () => {
    const refused = await doctor({ FORGE_SEARCH: 'searxng', FORGE_SEARXNG_URL: `http://${searchHost}` });
    expect(refused.get('search')).toMatchObject({ status: 'failed', fix: expect.stringContaining('forge config set allow_hosts') });
    const none = await doctor({});
    expect(none.get('search')).toMatchObject({ status: 'warning', detail: expect.stringContaining('no search provider is set'), fix: expect.stringContaining('forge init --search') });
  }, 60_000);

  it('passes (exit 0) with a warning when only the optional search provider is not set up', async () => {
    const mock = new LLMock({ port: 0, host: '127.0.0.1' });
    await mock.start();
    try {
      mock.on({ userMessage: 'Reply with the single word OK.' }, { content: 'OK', usage: { prompt_tokens: 7, completion_tokens: 1 } });
      const checks = await doctor({ FORGE_MODEL: `openai-compatible:doctor-model@${mock.url}/v1`, FORGE_ALLOW_HOSTS: new URL(mock.url).host });
      expect(checks.get('model')?.status).toBe('ok');
      expect(checks.get('search')?.status).toBe('warning');
      expect(checks.code).toBe(0);
    } finally {
      await mock.stop();
    }
  }, 60_000);

  it('names the guard setting, the home and the settings when they are broken', async () => {
    const guard = await doctor({ FORGE_ALLOW_HOSTS: 'not a host' });
    expect(guard.get('guard')).toMatchObject({ status: 'failed', detail: expect.stringContaining('"not a host" is not a host:port pair'), fix: expect.stringContaining('FORGE_ALLOW_HOSTS is a comma-separated list') });

    const blocker = path.join(scratch, 'a-file');
    await writeFile(blocker, 'not a folder');
    const store = await doctor({ FORGE_HOME: path.join(blocker, 'home') });
    expect(store.get('store')).toMatchObject({ status: 'failed', fix: expect.stringContaining('FORGE_HOME=<folder>') });

    const settings = await doctor({ FORGE_HISTORY_TOKENS: 'lots' });
    expect(settings.get('settings')).toMatchObject({ status: 'failed', detail: expect.stringContaining('FORGE_HISTORY_TOKENS must be a positive whole number') });
    expect(settings.get('model')?.status).toBe('skipped');
  }, 60_000);
});

describe('forge demo leaves a playground in the home', () => {
  it('after the demo, skill list, runs list, stats and replay work, and --serve-world lets the skill run again', async () => {
    const user = await folder('user-demo');
    const project = await folder('project-demo');
    const env = { HOME: user };
    const demo = await runCli(['demo', '--json'], env, { cwd: project, timeoutMs: 90_000 });
    expect(demo.code, demo.stderr).toBe(0);
    const report = JSON.parse(demo.stdout) as { home: string; skill: string; rows: { run_id: string; log_file: string }[] };
    expect(report.home).toBe(path.join(user, '.forge'));

    const skills = JSON.parse((await runCli(['skill', 'list', '--json'], env, { cwd: project })).stdout) as { name: string }[] | { skills: { name: string }[] };
    expect(JSON.stringify(skills)).toContain('"latest-release-notes"');
    const runs = await runCli(['runs', 'list', '--json'], env, { cwd: project });
    for (const row of report.rows) expect(runs.stdout).toContain(row.run_id);
    const stats = await runCli(['stats', '--json'], env, { cwd: project });
    expect(stats.code).toBe(0);
    const replay = await runCli(['replay', report.rows[0]!.log_file, '--speed', '1000'], env, { cwd: project });
    expect(replay.code, replay.stderr).toBe(0);

    const world = spawn(process.execPath, [FORGE_BIN, 'demo', '--serve-world', '--json'], { cwd: project, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const served = await new Promise<{ env: Record<string, string> }>((resolve, reject) => {
        let text = '';
        world.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.trimEnd().endsWith('}')) resolve(JSON.parse(text) as { env: Record<string, string> });
        });
        world.on('exit', (code) => reject(new Error(`serve-world exited ${code}`)));
      });
      const again = await runCli(['skill', 'run', report.skill, '--input', 'topic=orbit', '--json', '--no-tui'], { ...env, ...served.env }, { cwd: project });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ status: 'completed', llm_calls: 0 });
    } finally {
      const exited = new Promise((resolve) => world.once('exit', resolve));
      world.kill('SIGINT');
      await exited;
    }
  }, 120_000);
});
