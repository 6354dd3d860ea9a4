import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileWeb, type HostileRoute, type HostileWeb } from './fixtures/hostile-web.js';
import { runCli, type CliResult } from './support/built-cli.js';

const openAiKey = 'sk-forge-attack-OPENAI-7d1e0c55b2';
const mcpToken = 'mcp-header-secret-42f9a1c7';
const urlPassword = 'url-password-9b3c77';

/** Every file under `folder`, recursively, as bytes decoded latin1 (so a secret is found in any file format). */
async function filesUnder(folder: string): Promise<{ file: string; text: string }[]> {
  const found: { file: string; text: string }[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.push({ file, text: await readFile(file, 'latin1') });
  }
  return found;
}

function expectNotShown(result: CliResult, secret: string): void {
  expect(result.stdout).not.toContain(secret);
  expect(result.stderr).not.toContain(secret);
}

/** A provider or server that echoes the credentials it was sent, the way many 401 and 403 bodies do. */
function echoAuthorization(status: number): (headers: Record<string, string | string[] | undefined>) => HostileRoute {
  return (headers) => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { message: `Incorrect API key provided: ${String(headers['authorization'])}`, type: 'invalid_request_error', code: 'invalid_api_key' } }),
  });
}

/**
 * Findings 12 and 14 of issue 11: secrets reflected back by a provider or server, and credentials in
 * URLs, must not be written down (run log, store) or printed (--json, errors). Driven through the built CLI.
 */
describe('secrets reflected into logs, the store and the terminal', () => {
  let web: HostileWeb;
  let home: string;

  beforeAll(async () => {
    web = await startHostileWeb({
      '/v1/responses': echoAuthorization(401),
      '/v1/chat/completions': echoAuthorization(401),
      '/mcp': echoAuthorization(403),
      '/loop': { status: 302, headers: { location: '/loop' } },
    });
    home = await mkdtemp(path.join(tmpdir(), 'forge-security-secrets-'));
  });
  afterAll(async () => {
    await web?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it('redacts a provider key echoed in a 401 body from --json, the run log and the store', async () => {
    const env = { FORGE_HOME: path.join(home, 'provider'), FORGE_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: openAiKey, OPENAI_BASE_URL: web.url('/v1') };

    const json = await runCli(['run', '--json', '--max-iterations', '1', 'What is new in Node.js?'], env);
    const plain = await runCli(['run', '--no-tui', '--max-iterations', '1', 'What is new in Node.js?'], env);

    expect(web.requests.filter((request) => request.startsWith('/v1/')).length).toBeGreaterThanOrEqual(2);
    expect(json.code).toBe(1);
    expect(json.stdout).toContain('Incorrect API key provided');
    expectNotShown(json, openAiKey);
    expect(plain.stderr).toContain('Incorrect API key provided');
    expectNotShown(plain, openAiKey);
    const written = await filesUnder(env.FORGE_HOME);
    expect(written.some(({ file }) => file.endsWith('.jsonl'))).toBe(true);
    expect(written.filter(({ text }) => text.includes('Incorrect API key provided')).length).toBeGreaterThan(0);
    expect(written.filter(({ text }) => text.includes(openAiKey)).map(({ file }) => file)).toEqual([]);
  });

  it('redacts an MCP header value echoed in the `forge mcp add` error', async () => {
    const env = { FORGE_HOME: path.join(home, 'mcp'), FORGE_ALLOW_HOSTS: web.allowHosts };
    const args = ['mcp', 'add', 'echo', web.url('/mcp'), '--header', `Authorization=Bearer ${mcpToken}`];

    const plain = await runCli(args, env);
    const json = await runCli([...args, '--json'], env);

    expect(web.requests).toContain('/mcp');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('Incorrect API key provided');
    expectNotShown(plain, mcpToken);
    expect(json.code).toBe(1);
    expect(json.stdout).toContain('Incorrect API key provided');
    expectNotShown(json, mcpToken);
  });

  it('masks the credentials of a URL in a redirect-loop error, printed and as the model sees it', async () => {
    const env = { FORGE_HOME: path.join(home, 'url'), FORGE_ALLOW_HOSTS: web.allowHosts };
    const url = `http://reader:${urlPassword}@127.0.0.1:${web.port}/loop`;

    const plain = await runCli(['tools', 'call', 'read_url', '--input', JSON.stringify({ url })], env);
    const json = await runCli(['tools', 'call', 'http_request', '--json', '--input', JSON.stringify({ method: 'GET', url })], env);

    expect(web.requests.filter((request) => request === '/loop').length).toBeGreaterThanOrEqual(12);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('more than 5 redirects');
    expectNotShown(plain, urlPassword);
    expect(json.code).toBe(1);
    expect(json.stdout).toContain('more than 5 redirects');
    expectNotShown(json, urlPassword);
  });

  it('masks the credentials of a URL that is not even valid, in the error', async () => {
    const env = { FORGE_HOME: path.join(home, 'url'), FORGE_ALLOW_HOSTS: web.allowHosts };

    const result = await runCli(['tools', 'call', 'read_url', '--input', JSON.stringify({ url: `http://reader:${urlPassword}@bad host/` })], env);

    expect(result.code).toBe(1);
    expect(result.stdout).toContain('not a valid absolute URL');
    expectNotShown(result, urlPassword);
  });
});
