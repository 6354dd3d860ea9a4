import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/security/index.js';
import { startFixtureWeb, type FixtureWeb } from './fixtures/fixture-web.js';
import { countLinksShapeOnlyTest, countLinksTest, countLinksTool, linkCount } from './fixtures/synthesis/count-links-modules.js';
import { runCli, type CliResult } from './support/built-cli.js';

/** `forge tools add | list | show | call | test | remove | export | import` through the built binary, as a user runs them. */
describe('the toolbox from the command line', () => {
  let web: FixtureWeb;
  let home: string;
  let env: Record<string, string>;
  let pages: { url: string; links: number }[];
  const file = (name: string) => path.join(home, 'work', name);

  beforeAll(async () => {
    web = await startFixtureWeb();
    home = await mkdtemp(path.join(tmpdir(), 'forge-tools-cli-'));
    env = { FORGE_HOME: home, FORGE_ALLOW_HOSTS: web.allowHosts, FORGE_RESOLVE: web.resolveEntries };
    const fetch = createGuardedFetch({ allowHosts: parseAllowHosts(web.allowHosts), resolve: parseResolveEntries(web.resolveEntries) });
    pages = await Promise.all([web.pages.article, web.pages.spam].map(async (url) => ({ url, links: linkCount((await fetch(url)).text()) })));
    expect(pages[0]!.links).not.toBe(pages[1]!.links);
    await mkdir(file(''), { recursive: true });
    await writeFile(file('count-links.js'), countLinksTool);
    await writeFile(file('count-links.test.js'), countLinksTest(pages));
    await writeFile(file('shape-only.test.js'), countLinksShapeOnlyTest(pages[0]!.url));
  });
  afterAll(async () => {
    await web?.close();
    await rm(home, { recursive: true, force: true });
  });

  function json(result: CliResult): Record<string, unknown> {
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  /** The toolbox as `forge tools export` writes it to stdout. */
  async function manifest(): Promise<{ version: number; tools: Array<Record<string, unknown>> }> {
    const exported = await runCli(['tools', 'export'], env);
    expect(exported.code, exported.stderr).toBe(0);
    return JSON.parse(exported.stdout) as { version: number; tools: Array<Record<string, unknown>> };
  }

  it('refuses a test that a stub passes, and a file that is not there, keeping nothing', async () => {
    const lazy = await runCli(['tools', 'add', file('count-links.js'), '--test', file('shape-only.test.js')], env);
    expect(lazy.code).toBe(1);
    expect(lazy.stderr).toContain('Tool "count_links" did not pass verification');
    expect(lazy.stderr).toContain('verifying ');
    expect(lazy.stderr).toMatch(/the test also passed against a stub that/);
    expect(lazy.stderr).not.toMatch(/\n\s+at /);

    const missing = await runCli(['tools', 'add', file('nope.js'), '--test', file('count-links.test.js')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.js');
    expect(missing.stderr).toContain('does not exist');
    expect(missing.stderr).not.toContain('ENOENT');

    const list = await runCli(['tools', 'list', '--json'], env);
    expect(json(list)['toolbox']).toEqual([]);
  });

  it('adds a tool through the gate, calls it in the sandbox from processes at once, shows it, and removes it', async () => {
    const added = await runCli(['tools', 'add', file('count-links.js'), '--test', file('count-links.test.js'), '--json'], env);
    expect(added.code, added.stderr).toBe(0);
    expect(json(added)).toEqual({ name: 'count_links', status: 'promoted', capabilities: ['fetch'], capabilities_used: ['fetch'] });

    // Three processes on one store at once: each call counts (an atomic increment, not a rewrite).
    const calls = await Promise.all([0, 1, 1].map((page) => runCli(['tools', 'call', 'count_links', '--json', '--input', JSON.stringify({ url: pages[page]!.url })], env)));
    for (const called of calls) expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse((json(calls[1]!) as { output: string }).output)).toMatchObject({ count: pages[1]!.links });

    const shown = json(await runCli(['tools', 'show', 'count_links', '--json'], env));
    expect(shown).toMatchObject({ name: 'count_links', registered: true, toolbox: { status: 'promoted', origin: 'added', uses: 3, source: countLinksTool } });

    const retested = await runCli(['tools', 'test', 'count_links', '--json'], env);
    expect(retested.code, retested.stderr).toBe(0);
    expect(JSON.parse(retested.stdout)).toEqual({ name: 'count_links', status: 'promoted', passed: true, failures: [], capabilities_used: ['fetch'] });

    const removed = await runCli(['tools', 'remove', 'count_links'], env);
    expect(removed.code).toBe(0);
    const gone = await runCli(['tools', 'show', 'count_links'], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('count_links');
    expect(gone.stderr).toContain('read_url');
    expect((await manifest()).tools).toEqual([]);
  });

  it('shows a failed tool from the graveyard with its failures and source, and never calls it', async () => {
    const graveyardSource = [
      "export const meta = { name: 'extract_dates', description: 'Finds the dates in a text.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, capabilities: [] };",
      'export default async function run() { return []; }',
    ].join('\n');
    const current = await manifest();
    expect(current).toEqual({ version: 1, tools: [] });
    current.tools.push({
      name: 'extract_dates',
      description: 'Finds the dates in a text.',
      status: 'failed',
      origin: 'synthesized',
      source: graveyardSource,
      test: 'export default async function test(tool, assert) { assert.deepEqual(await tool({ text: "1 May 2026" }), ["2026-05-01"]); }',
      revisions: 3,
      uses: 0,
      capabilities: [],
      capabilities_used: [],
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      failures: ['assert.deepEqual failed: [] vs ["2026-05-01"]'],
      cost_usd: 0.0042,
      created_at: '2026-12-01T00:00:00.000Z',
      updated_at: '2026-12-01T00:00:00.000Z',
    });
    await writeFile(file('graveyard.json'), JSON.stringify(current, null, 2));
    const imported = await runCli(['tools', 'import', file('graveyard.json'), '--json'], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(json(imported)).toEqual({ imported: [{ name: 'extract_dates', status: 'failed', uses: 0 }] });

    const shown = await runCli(['tools', 'show', 'extract_dates'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('extract_dates  (not registered: failed)');
    expect(shown.stdout).toContain('failed, synthesized, 3 revisions');
    expect(shown.stdout).toContain('assert.deepEqual failed');
    expect(shown.stdout).not.toContain('return [];');

    const withSource = await runCli(['tools', 'show', 'extract_dates', '--source'], env);
    expect(withSource.stdout).toContain(`// tool module\n${graveyardSource}`);

    const retested = await runCli(['tools', 'test', 'extract_dates'], env);
    expect(retested.code).toBe(1);
    expect(retested.stdout).toContain('extract_dates (failed) no longer passes the gate:');
    expect(retested.stdout).toContain('assert.deepEqual failed: expected [] to deeply equal ["2026-05-01"]');
    const unknown = await runCli(['tools', 'test', 'no_such_tool'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No toolbox tool with name "no_such_tool"');

    const called = await runCli(['tools', 'call', 'extract_dates', '--input', '{"text": "1 May 2026"}'], env);
    expect(called.code).toBe(1);
    expect(called.stderr + called.stdout).toMatch(/extract_dates/);
    expect((await manifest()).tools.find((tool) => tool.name === 'extract_dates')).toMatchObject({ status: 'failed', uses: 0 });
  });

  it('exports the toolbox to a private file and imports it into another FORGE_HOME, where the promoted tool is verified again and runs', async () => {
    const added = await runCli(['tools', 'add', file('count-links.js'), '--test', file('count-links.test.js')], env);
    expect(added.code, added.stderr).toBe(0);
    const exportFile = file('toolbox-export.json');

    const exported = await runCli(['tools', 'export', exportFile], env);

    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`exported 2 tools to ${exportFile}`);
    expect(((await stat(exportFile)).mode & 0o777).toString(8)).toBe('600');
    const written = JSON.parse(await readFile(exportFile, 'utf8')) as { version: number; tools: Array<{ name: string; status: string }> };
    expect(written.version).toBe(1);
    expect(written.tools.map((tool) => [tool.name, tool.status])).toEqual([['extract_dates', 'failed'], ['count_links', 'promoted']]);

    const otherEnv = { ...env, FORGE_HOME: path.join(home, 'other-home') };
    const imported = await runCli(['tools', 'import', exportFile], otherEnv);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('goes through the verification gate again');
    expect(imported.stdout).toBe('imported 2 tools\n  extract_dates (failed)\n  count_links (promoted)\n');
    const called = await runCli(['tools', 'call', 'count_links', '--json', '--input', JSON.stringify({ url: pages[0]!.url })], otherEnv);
    expect(called.code, called.stderr).toBe(0);
    const again = await runCli(['tools', 'export'], otherEnv);
    expect((JSON.parse(again.stdout) as { tools: Array<{ name: string; uses: number }> }).tools.map((tool) => [tool.name, tool.uses])).toEqual([['extract_dates', 0], ['count_links', 1]]);
  });

  it('refuses to import a malformed manifest, naming the file and what is wrong, and imports nothing', async () => {
    const badFile = file('bad-manifest.json');
    await writeFile(badFile, JSON.stringify({ version: 1, tools: [{ name: '../escape', status: 'promoted' }] }));
    const freshEnv = { ...env, FORGE_HOME: path.join(home, 'refusing-home') };

    const refused = await runCli(['tools', 'import', badFile], freshEnv);

    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The toolbox manifest ${badFile} cannot be read`);
    expect(refused.stderr).toContain('tools.0.name: must be a tool name');
    expect(refused.stderr).toContain('tools.0.description');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse((await runCli(['tools', 'export'], freshEnv)).stdout)).toEqual({ version: 1, tools: [] });
  });
});
