import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refuseApprovals } from '../src/engine/index.js';
import { builtInPolicy } from '../src/policy/index.js';
import type { ForgeEvent, GuardedFetch, Store } from '../src/core/index.js';
import { InProcessEventBus, createRunEmitter } from '../src/events/index.js';
import { openStore } from '../src/adapters/store/index.js';
import {
  TOOLBOX_MANIFEST_VERSION,
  Toolbox,
  ToolboxManifestError,
  ToolVerificationError,
  addVerifiedTool,
  exportToolboxManifest,
  importToolboxManifest,
  registerPromotedTools,
  toolboxFolder,
  type ToolboxEntry,
} from '../src/synthesis/toolbox/index.js';
import { ToolRegistry, dispatchToolCall } from '../src/tools/index.js';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/security/index.js';
import { startFixtureWeb, type FixtureWeb } from './fixtures/fixture-web.js';
import { countLinksBuggyTool, countLinksShapeOnlyTest, countLinksTest, countLinksTool, countLinksUndeclaredTool, linkCount } from './fixtures/synthesis/count-links-modules.js';

const corpus = path.join(import.meta.dirname, 'fixtures', 'synthesis', 'manifest-corpus');

/** Malformed manifests of the corpus, each with what its refusal must name. */
const brokenManifests: Array<[string, RegExp]> = [
  ['not-json.json', /not JSON/],
  ['missing-version.json', /no "version" field/],
  ['future-version.json', /version 2 is not supported \(this build reads version 1\)/],
  ['bad-status.json', /tools\.0\.status/],
  ['duplicate-name.json', /listed twice: count_links/],
  ['path-name.json', /tools\.0\.name: must be a tool name/],
];

describe('the toolbox in the store, and `forge tools add` through the verification gate', () => {
  let web: FixtureWeb;
  let home: string;
  let fetch: GuardedFetch;
  let testSource: string;
  const stores: Store[] = [];

  beforeAll(async () => {
    web = await startFixtureWeb();
    fetch = createGuardedFetch({ allowHosts: parseAllowHosts(web.allowHosts), resolve: parseResolveEntries(web.resolveEntries) });
    const pages = await Promise.all([web.pages.article, web.pages.spam].map(async (url) => ({ url, links: linkCount((await fetch(url)).text()) })));
    expect(pages[0]!.links).not.toBe(pages[1]!.links);
    testSource = countLinksTest(pages);
  });
  afterAll(async () => {
    await web.close();
  });
  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-toolbox-'));
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await rm(home, { recursive: true, force: true });
  });

  /** A store on the database file of `home` (or of `databaseHome`): opened afresh, as a new process would. */
  async function openFileStore(databaseHome = home): Promise<Store> {
    const store = await openStore({ url: path.join(databaseHome, 'forge.db') });
    stores.push(store);
    return store;
  }

  async function closeStore(store: Store): Promise<void> {
    stores.splice(stores.indexOf(store), 1);
    await store.close();
  }

  async function freshToolbox(): Promise<Toolbox> {
    return Toolbox.open(toolboxFolder(home), (await openFileStore()).toolbox);
  }

  it('promotes a tool whose test passes and rejects every stub, keeps it in the store, and dispatches it in the sandbox after a reopen', async () => {
    const first = await openFileStore();
    const entry = await addVerifiedTool(await Toolbox.open(toolboxFolder(home), first.toolbox), new ToolRegistry(), { toolSource: countLinksTool, testSource, fetch });
    expect(entry).toMatchObject({ name: 'count_links', status: 'promoted', origin: 'added', uses: 0, capabilities: ['fetch'], capabilities_used: ['fetch'] });
    await closeStore(first);
    // No manifest file: the store row is all there is.
    await expect(access(path.join(toolboxFolder(home), 'manifest.json'))).rejects.toMatchObject({ code: 'ENOENT' });

    // A new process: the store alone brings the tool back into a registry.
    const reopened = await Toolbox.open(toolboxFolder(home), (await openFileStore()).toolbox);
    const secondRegistry = new ToolRegistry();
    await registerPromotedTools(secondRegistry, reopened);
    const bus = new InProcessEventBus();
    const events: ForgeEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const emitter = createRunEmitter(bus, 'call-test');
    const outcome = await dispatchToolCall(
      { name: 'count_links', input: { url: web.pages.article }, callId: 'c1', iteration: null },
      { tools: secondRegistry.snapshot(), policy: builtInPolicy, approvals: refuseApprovals, emitter, context: { runId: 'call-test', signal: new AbortController().signal, fetch, utilityModel: undefined } },
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.untrusted).toBe(true);
    expect(outcome.ok && (outcome.value as { count: number }).count).toBe(linkCount((await fetch(web.pages.article)).text()));
    expect(events.map((event) => event.type)).toEqual(['tool-call-start', 'policy-decision', 'tool-result']);
    expect(await reopened.get('count_links')).toEqual({ ...entry, uses: 1 });
  });

  it('rejects a test that passes a stub, naming the stubs, and records nothing', async () => {
    const toolbox = await freshToolbox();
    const error = await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksTool, testSource: countLinksShapeOnlyTest(web.pages.article), fetch }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolVerificationError);
    expect((error as ToolVerificationError).failures.join('\n')).toMatch(/also passed against .*a stub that always returns \{\}/);
    expect((error as ToolVerificationError).failures.join('\n')).toMatch(/a stub that returns its input unchanged/);
    expect(await toolbox.list()).toEqual([]);
  });

  it('rejects a buggy tool with the failing assertion, and a tool that uses an undeclared capability', async () => {
    const toolbox = await freshToolbox();
    const buggy = await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksBuggyTool, testSource, fetch }).catch((caught: unknown) => caught);
    expect((buggy as ToolVerificationError).failures.join('\n')).toMatch(/assert\.equal failed: counts every link/);
    const undeclared = await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksUndeclaredTool, testSource, fetch }).catch((caught: unknown) => caught);
    expect(undeclared).toBeInstanceOf(ToolVerificationError);
    expect((undeclared as ToolVerificationError).failures.join('\n')).toMatch(/CapabilityNotGrantedError|fetch/);
    expect(await toolbox.list()).toEqual([]);
  });

  describe('migrating the manifest an older Forge kept the toolbox in', () => {
    it('moves every entry of the manifest, use counts included, into an empty store once, says so, and sets the file aside', async () => {
      const manifestText = await readFile(path.join(corpus, 'v1-current', 'manifest.json'), 'utf8');
      const manifestFile = path.join(toolboxFolder(home), 'manifest.json');
      await mkdir(toolboxFolder(home), { recursive: true });
      await writeFile(manifestFile, manifestText);

      const toolbox = await freshToolbox();

      expect(toolbox.migration).toEqual({ file: manifestFile, movedTo: `${manifestFile}.migrated`, imported: 2, problem: null });
      // A manifest of an older Forge names no owner: its tools are the installation's.
      const expected = (JSON.parse(manifestText) as { tools: ToolboxEntry[] }).tools.map((tool) => ({ ...tool, owner: null }));
      expect(await toolbox.list()).toEqual(expected);
      expect((await toolbox.promoted()).map((tool) => tool.name)).toEqual(['count_links']);
      await expect(access(manifestFile)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await readFile(`${manifestFile}.migrated`, 'utf8')).toBe(manifestText);

      // Once only: emptied later, the toolbox does not come back from the file set aside.
      await toolbox.wipe();
      await closeStore(stores[0]!);
      const reopened = await freshToolbox();
      expect(reopened.migration).toBeNull();
      expect(await reopened.list()).toEqual([]);
    });

    it('leaves a store that already holds the toolbox as it is, setting the manifest aside unread', async () => {
      const store = await openFileStore();
      const first = await Toolbox.open(toolboxFolder(home), store.toolbox);
      const [kept] = (JSON.parse(await readFile(path.join(corpus, 'v1-current', 'manifest.json'), 'utf8')) as { tools: ToolboxEntry[] }).tools;
      await first.put({ ...kept!, uses: 9 });
      const manifestFile = path.join(toolboxFolder(home), 'manifest.json');
      await mkdir(toolboxFolder(home), { recursive: true });
      await writeFile(manifestFile, await readFile(path.join(corpus, 'not-json.json'), 'utf8'));

      const second = await Toolbox.open(toolboxFolder(home), store.toolbox);

      expect(second.migration).toEqual({ file: manifestFile, movedTo: `${manifestFile}.migrated`, imported: 0, problem: null });
      expect(await second.list()).toEqual([{ ...kept, uses: 9, owner: null }]);
    });

    it('sets a broken manifest aside by name, importing nothing, so it blocks no command and can be fixed and imported', async () => {
      await mkdir(toolboxFolder(home), { recursive: true });
      const store = await openFileStore();
      for (const [file, message] of brokenManifests) {
        const manifestFile = path.join(toolboxFolder(home), 'manifest.json');
        await writeFile(manifestFile, await readFile(path.join(corpus, file), 'utf8'));
        const toolbox = await Toolbox.open(toolboxFolder(home), store.toolbox);
        const problem = toolbox.migration?.problem;
        expect(problem, file).toBeInstanceOf(ToolboxManifestError);
        expect(problem!.message, file).toContain(manifestFile);
        expect(problem!.message, file).toMatch(message);
        expect(toolbox.migration, file).toMatchObject({ file: manifestFile, movedTo: `${manifestFile}.unreadable`, imported: 0 });
        expect(await store.toolbox.list(), file).toEqual([]);
        await expect(access(manifestFile)).rejects.toMatchObject({ code: 'ENOENT' });
        await access(`${manifestFile}.unreadable`);
      }
    });
  });

  describe('export and import', () => {
    it('round-trips the toolbox through a manifest into another store: the same tools, statuses and counts, promoted ones verified again and registered', async () => {
      const source = await freshToolbox();
      await addVerifiedTool(source, new ToolRegistry(), { toolSource: countLinksTool, testSource, fetch });
      await source.addUse('count_links');
      const graveyard = (JSON.parse(await readFile(path.join(corpus, 'v1-current', 'manifest.json'), 'utf8')) as { tools: ToolboxEntry[] }).tools[1]!;
      await source.put(graveyard);
      const exported = await exportToolboxManifest(source);
      expect(exported.version).toBe(TOOLBOX_MANIFEST_VERSION);
      expect(exported.tools.map((tool) => [tool.name, tool.status, tool.uses])).toEqual([['count_links', 'promoted', 1], ['extract_dates', 'failed', 2]]);

      const elsewhere = await mkdtemp(path.join(tmpdir(), 'forge-toolbox-elsewhere-'));
      try {
        const target = await Toolbox.open(toolboxFolder(elsewhere), (await openFileStore(elsewhere)).toolbox);
        const registry = new ToolRegistry();
        const imported = await importToolboxManifest(target, registry, JSON.stringify(exported), 'exported.json', { fetch });

        expect(imported).toEqual(exported.tools);
        expect(await target.list()).toEqual(exported.tools);
        expect(registry.names()).toEqual(['count_links']);
        expect(await exportToolboxManifest(target)).toEqual(exported);
      } finally {
        await rm(elsewhere, { recursive: true, force: true });
      }
    });

    it('replaces a tool the toolbox holds and keeps its use count', async () => {
      const toolbox = await freshToolbox();
      await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksTool, testSource, fetch });
      const exported = await exportToolboxManifest(toolbox);
      await Promise.all([toolbox.addUse('count_links'), toolbox.addUse('count_links')]);

      const [imported] = await importToolboxManifest(toolbox, new ToolRegistry(), JSON.stringify(exported), 'exported.json', { fetch });

      expect(imported).toMatchObject({ name: 'count_links', uses: 2 });
      expect((await toolbox.get('count_links'))?.uses).toBe(2);
    });

    it('refuses a malformed manifest with an error naming the file and what is wrong, importing nothing', async () => {
      const toolbox = await freshToolbox();
      for (const [file, message] of brokenManifests) {
        const error = await importToolboxManifest(toolbox, new ToolRegistry(), await readFile(path.join(corpus, file), 'utf8'), file, { fetch }).catch((caught: unknown) => caught);
        expect(error, file).toBeInstanceOf(ToolboxManifestError);
        expect((error as ToolboxManifestError).file, file).toBe(file);
        expect((error as Error).message, file).toMatch(message);
      }
      expect(await toolbox.list()).toEqual([]);
    });

    it('refuses a manifest whose promoted tool does not pass the gate here, or whose module names another tool, importing nothing', async () => {
      const toolbox = await freshToolbox();
      const registry = new ToolRegistry();
      // The corpus' current manifest lists a failed tool and a "promoted" one whose module is a placeholder.
      const placeholder = await importToolboxManifest(toolbox, registry, await readFile(path.join(corpus, 'v1-current', 'manifest.json'), 'utf8'), 'v1-current.json', { fetch }).catch((caught: unknown) => caught);
      expect(placeholder).toBeInstanceOf(ToolVerificationError);

      const memory = await openStore({ url: ':memory:' });
      stores.push(memory);
      const source = await Toolbox.open(toolboxFolder(path.join(home, 'source')), memory.toolbox);
      await addVerifiedTool(source, new ToolRegistry(), { toolSource: countLinksTool, testSource, fetch });
      const manifest = await exportToolboxManifest(source);
      const lazyTest = { ...manifest, tools: [{ ...manifest.tools[0]!, test: countLinksShapeOnlyTest(web.pages.article) }] };
      const stub = await importToolboxManifest(toolbox, registry, JSON.stringify(lazyTest), 'lazy.json', { fetch }).catch((caught: unknown) => caught);
      expect(stub).toBeInstanceOf(ToolVerificationError);
      expect((stub as ToolVerificationError).failures.join('\n')).toMatch(/also passed against .*a stub/);
      const renamed = { ...manifest, tools: [{ ...manifest.tools[0]!, name: 'innocent_tool' }] };
      const misnamed = await importToolboxManifest(toolbox, registry, JSON.stringify(renamed), 'renamed.json', { fetch }).catch((caught: unknown) => caught);
      expect(misnamed).toBeInstanceOf(ToolVerificationError);
      expect((misnamed as Error).message).toContain('renamed.json lists it under the name "innocent_tool", but its module\'s meta names it "count_links"');

      expect(await toolbox.list()).toEqual([]);
      expect(registry.names()).toEqual([]);
    });
  });
});
