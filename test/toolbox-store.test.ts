import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callTool, openRuntime, wipeToolbox, type ForgeRuntime } from '../src/compose/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { addVerifiedTool, toolboxFolder, type ToolboxEntry } from '../src/synthesis/toolbox/index.js';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/security/index.js';
import { startFixtureWeb, type FixtureWeb } from './fixtures/fixture-web.js';
import { countLinksTest, countLinksTool, linkCount } from './fixtures/synthesis/count-links-modules.js';

/** Runtimes on one FORGE_HOME and one database file: what two Forge processes on one machine share. */
describe('the toolbox held by the store, shared by every runtime on it', () => {
  let web: FixtureWeb;
  let testSource: string;
  let home: string;
  const runtimes: ForgeRuntime[] = [];

  beforeAll(async () => {
    web = await startFixtureWeb();
    const fetch = createGuardedFetch({ allowHosts: parseAllowHosts(web.allowHosts), resolve: parseResolveEntries(web.resolveEntries) });
    testSource = countLinksTest(await Promise.all([web.pages.article, web.pages.spam].map(async (url) => ({ url, links: linkCount((await fetch(url)).text()) }))));
  });
  afterAll(async () => {
    await web.close();
  });
  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-toolbox-store-'));
  });
  afterEach(async () => {
    await closeAll();
    await rm(home, { recursive: true, force: true });
  });

  async function open(): Promise<ForgeRuntime> {
    const env = { FORGE_HOME: home, FORGE_DATABASE_URL: path.join(home, 'forge.db'), FORGE_ALLOW_HOSTS: web.allowHosts, FORGE_RESOLVE: web.resolveEntries, FORGE_SECRET_KEY: 'toolbox-store-test-key' };
    const runtime = await openRuntime(env, home, { mcp: { startupWaitMs: 0 } });
    runtimes.push(runtime);
    return runtime;
  }

  async function closeAll(): Promise<void> {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  }

  async function addCountLinks(runtime: ForgeRuntime): Promise<ToolboxEntry> {
    return addVerifiedTool(runtime.toolbox, runtime.registry, { toolSource: countLinksTool, testSource, fetch: runtime.fetch });
  }

  it('shows a tool one runtime adds to another runtime already open on the store, and a removal too', async () => {
    const first = await open();
    const second = await open();

    const added = await addCountLinks(first);

    expect(await second.toolbox.get('count_links')).toEqual(added);
    expect(await second.toolbox.list()).toEqual(await first.toolbox.list());
    expect(await second.toolbox.remove('count_links')).toBe(true);
    expect(await first.toolbox.list()).toEqual([]);
  });

  it('counts every use from two runtimes calling the tool at once, and each direct call is a recorded run', async () => {
    const first = await open();
    await addCountLinks(first);
    const second = await open();
    expect(second.registry.get('count_links')).toBeDefined();

    const calls = await Promise.all(
      [first, second, first, second, first, second, first, second].map((runtime) => callTool(runtime, { name: 'count_links', input: { url: web.pages.article } })),
    );
    // Counted directly as well, many at once, from both runtimes' connections.
    await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? first : second).toolbox.addUse('count_links')));

    expect(calls.map((call) => call.outcome.ok)).toEqual(Array.from({ length: 8 }, () => true));
    expect((await first.toolbox.get('count_links'))?.uses).toBe(48);
    expect(await first.store.runs.list({ statuses: ['completed'] })).toHaveLength(8);
  });

  it('keeps the toolbox, its statuses and counts, across a restart, and registers its promoted tools again', async () => {
    const first = await open();
    const added = await addCountLinks(first);
    await callTool(first, { name: 'count_links', input: { url: web.pages.spam } });
    await closeAll();

    const reopened = await open();

    expect(await reopened.toolbox.list()).toEqual([{ ...added, uses: 1 }]);
    expect(reopened.registry.get('count_links')).toMatchObject({ name: 'count_links', sideEffect: 'write' });
    expect(reopened.notices).toEqual([]);
    // Read from the database file by a store of its own, not through the runtime.
    const store = await openStore({ url: path.join(home, 'forge.db') });
    try {
      expect(await store.toolbox.list()).toEqual([expect.objectContaining({ name: 'count_links', status: 'promoted', uses: 1 })]);
    } finally {
      await store.close();
    }
  });

  it('empties the store\'s toolbox on `--fresh`, for every runtime and after a restart', async () => {
    const first = await open();
    await addCountLinks(first);
    const second = await open();

    await wipeToolbox(first);

    expect(first.registry.get('count_links')).toBeUndefined();
    expect(await second.toolbox.list()).toEqual([]);
    await closeAll();
    expect(await (await open()).toolbox.list()).toEqual([]);
  });

  it('migrates the manifest an older Forge left in FORGE_HOME once, and says so', async () => {
    const manifest = await readFile(path.join(import.meta.dirname, 'fixtures', 'synthesis', 'manifest-corpus', 'v1-current', 'manifest.json'), 'utf8');
    await mkdir(toolboxFolder(home), { recursive: true });
    await writeFile(path.join(toolboxFolder(home), 'manifest.json'), manifest);

    const migrated = await open();

    expect(migrated.notices).toEqual([expect.stringMatching(/^toolbox: moved 2 tools from .*manifest\.json into the store; the store is now the toolbox's only truth, and the file was kept as .*manifest\.json\.migrated/)]);
    expect((await migrated.toolbox.list()).map((tool) => [tool.name, tool.status, tool.uses])).toEqual([['count_links', 'promoted', 2], ['extract_dates', 'failed', 2]]);
    expect(migrated.registry.get('count_links')).toBeDefined();
    expect(migrated.registry.get('extract_dates')).toBeUndefined();
    await closeAll();

    const later = await open();
    expect(later.notices).toEqual([]);
    expect(await later.toolbox.list()).toHaveLength(2);
  });
});
