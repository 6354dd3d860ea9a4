import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolboxRecord } from '../src/core/index.js';
import { openRuntime, wipeToolbox, type ForgeRuntime } from '../src/runtime/index.js';
import { openStore } from '../src/store/index.js';
import { Toolbox, ToolboxMirrorError, addVerifiedTool, toolboxFolder, type ToolboxMirror } from '../src/synthesis/toolbox/index.js';
import { ToolRegistry } from '../src/tools/index.js';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/tools/security/index.js';
import { startFixtureWeb, type FixtureWeb } from './fixtures/fixture-web.js';
import { countLinksTest, countLinksTool, linkCount } from './fixtures/synthesis/count-links-modules.js';

describe('the toolbox manifest mirrored in the store', () => {
  let web: FixtureWeb;
  let testSource: string;
  let home: string;
  let databaseFile: string;
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
    home = await mkdtemp(path.join(tmpdir(), 'forge-toolbox-mirror-'));
    databaseFile = path.join(home, 'forge.db');
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
    await rm(home, { recursive: true, force: true });
  });

  async function open(): Promise<ForgeRuntime> {
    const env = { FORGE_HOME: home, FORGE_DATABASE_URL: databaseFile, FORGE_ALLOW_HOSTS: web.allowHosts, FORGE_RESOLVE: web.resolveEntries, FORGE_SECRET_KEY: 'mirror-test-key' };
    const runtime = await openRuntime(env, home, { mcp: { startupWaitMs: 0 } });
    runtimes.push(runtime);
    return runtime;
  }

  async function closeAll(): Promise<void> {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  }

  /** The store's copy, read from the database file by a store opened afresh. */
  async function mirroredRecords(): Promise<ToolboxRecord[]> {
    const store = await openStore({ url: databaseFile });
    try {
      return await store.toolbox.list();
    } finally {
      await store.close();
    }
  }

  async function manifestTools(): Promise<Array<Record<string, unknown>>> {
    return (JSON.parse(await readFile(path.join(toolboxFolder(home), 'manifest.json'), 'utf8')) as { tools: Array<Record<string, unknown>> }).tools;
  }

  it('writes a tool added through the gate through to the store, where a reopened store finds it with its status', async () => {
    const runtime = await open();
    await addVerifiedTool(runtime.toolbox, runtime.registry, { toolSource: countLinksTool, testSource, fetch: runtime.fetch });
    await closeAll();

    const records = await mirroredRecords();

    const [fileEntry] = await manifestTools();
    expect(records).toEqual([{ name: 'count_links', status: 'promoted', entry: fileEntry, updatedAt: fileEntry?.['updated_at'] }]);
  });

  it('mirrors every later change of the entry, and `forge tools remove` deletes it', async () => {
    const runtime = await open();
    await addVerifiedTool(runtime.toolbox, runtime.registry, { toolSource: countLinksTool, testSource, fetch: runtime.fetch });

    await runtime.toolbox.update('count_links', { uses: 3 });
    expect((await mirroredRecords()).map((record) => [record.status, record.entry['uses']])).toEqual([['promoted', 3]]);

    expect(await runtime.toolbox.remove('count_links')).toBe(true);
    expect(await mirroredRecords()).toEqual([]);
  });

  it('empties the mirror on `--fresh` (the toolbox wipe)', async () => {
    const runtime = await open();
    await addVerifiedTool(runtime.toolbox, runtime.registry, { toolSource: countLinksTool, testSource, fetch: runtime.fetch });
    expect(await mirroredRecords()).toHaveLength(1);

    await wipeToolbox(runtime);

    expect(await mirroredRecords()).toEqual([]);
    expect(await manifestTools()).toEqual([]);
  });

  it('rewrites a mirror that disagrees with the file from the file on open, and writes nothing when they agree', async () => {
    const runtime = await open();
    await addVerifiedTool(runtime.toolbox, runtime.registry, { toolSource: countLinksTool, testSource, fetch: runtime.fetch });
    const faithful = await mirroredRecords();
    // Behind the toolbox's back: one record altered, one the manifest never listed.
    await runtime.store.toolbox.put({ ...faithful[0]!, status: 'failed', entry: { ...faithful[0]!.entry, status: 'failed' } });
    await runtime.store.toolbox.put({ name: 'ghost', status: 'promoted', entry: { name: 'ghost' }, updatedAt: '2026-01-01T00:00:00.000Z' });
    await closeAll();

    await open();
    await closeAll();

    expect(await mirroredRecords()).toEqual(faithful);
    const store = await openStore({ url: databaseFile });
    try {
      const writes = countingMirror(store.toolbox);
      await Toolbox.open(toolboxFolder(home), { mirror: writes.mirror });
      expect(writes.count()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('rejects a change the store cannot mirror with ToolboxMirrorError, the manifest already holding it', async () => {
    const failing: ToolboxMirror = {
      list: async () => [],
      put: () => Promise.reject(new Error('database is locked')),
      delete: async () => false,
      clear: async () => undefined,
    };
    const toolbox = await Toolbox.open(toolboxFolder(home), { mirror: failing });
    const fetch = createGuardedFetch({ allowHosts: parseAllowHosts(web.allowHosts), resolve: parseResolveEntries(web.resolveEntries) });

    const error = await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksTool, testSource, fetch }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ToolboxMirrorError);
    expect(error).toMatchObject({ toolName: 'count_links', message: expect.stringMatching(/count_links.*database is locked/) });
    expect((await manifestTools()).map((tool) => tool['name'])).toEqual(['count_links']);
  });
});

/** A mirror that passes every call on to `target`, counting the writes. */
function countingMirror(target: ToolboxMirror): { mirror: ToolboxMirror; count: () => number } {
  let writes = 0;
  const counted = <T>(write: () => Promise<T>): Promise<T> => {
    writes += 1;
    return write();
  };
  return {
    mirror: {
      list: () => target.list(),
      put: (record) => counted(() => target.put(record)),
      delete: (name) => counted(() => target.delete(name)),
      clear: () => counted(() => target.clear()),
    },
    count: () => writes,
  };
}
