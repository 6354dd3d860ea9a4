import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPolicy, refuseApprovals } from '../src/agent/index.js';
import type { ForgeEvent, GuardedFetch } from '../src/core/index.js';
import { InProcessEventBus, createRunEmitter } from '../src/events/index.js';
import { Toolbox, ToolboxManifestError, ToolVerificationError, addVerifiedTool, registerPromotedTools, toolboxFolder } from '../src/synthesis/toolbox/index.js';
import { ToolRegistry, dispatchToolCall } from '../src/tools/index.js';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/tools/security/index.js';
import { startFixtureWeb, type FixtureWeb } from './fixtures/fixture-web.js';
import { countLinksBuggyTool, countLinksShapeOnlyTest, countLinksTest, countLinksTool, countLinksUndeclaredTool, linkCount } from './fixtures/synthesis/count-links-modules.js';

describe('toolbox manifest and `forge tools add` through the verification gate', () => {
  let web: FixtureWeb;
  let home: string;
  let fetch: GuardedFetch;
  let testSource: string;

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

  async function freshToolbox() {
    home = await mkdtemp(path.join(tmpdir(), 'forge-toolbox-'));
    return Toolbox.open(toolboxFolder(home));
  }

  it('promotes a tool whose test passes and rejects every stub, persists it, and dispatches it in the sandbox', async () => {
    const toolbox = await freshToolbox();
    const registry = new ToolRegistry();
    const entry = await addVerifiedTool(toolbox, registry, { toolSource: countLinksTool, testSource, fetch });
    expect(entry).toMatchObject({ name: 'count_links', status: 'promoted', origin: 'added', capabilities: ['fetch'], capabilities_used: ['fetch'] });

    const manifest = JSON.parse(await readFile(path.join(home, 'toolbox', 'manifest.json'), 'utf8')) as { version: number; tools: Array<{ name: string; status: string }> };
    expect(manifest.version).toBe(1);
    expect(manifest.tools.map((tool) => [tool.name, tool.status])).toEqual([['count_links', 'promoted']]);

    // A new process: the manifest alone brings the tool back into a registry.
    const reopened = await Toolbox.open(toolboxFolder(home));
    const secondRegistry = new ToolRegistry();
    registerPromotedTools(secondRegistry, reopened);
    const bus = new InProcessEventBus();
    const events: ForgeEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const emitter = createRunEmitter(bus, 'call-test');
    const outcome = await dispatchToolCall(
      { name: 'count_links', input: { url: web.pages.article }, callId: 'c1', iteration: null },
      { tools: secondRegistry.snapshot(), policy: defaultPolicy, approvals: refuseApprovals, emitter, context: { runId: 'call-test', signal: new AbortController().signal, fetch, utilityModel: undefined } },
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.untrusted).toBe(true);
    expect(outcome.ok && (outcome.value as { count: number }).count).toBe(linkCount((await fetch(web.pages.article)).text()));
    expect(events.map((event) => event.type)).toEqual(['tool-call-start', 'policy-decision', 'tool-result']);
    expect(reopened.get('count_links')?.uses).toBe(1);
    await rm(home, { recursive: true, force: true });
  });

  it('rejects a test that passes a stub, naming the stubs, and records nothing', async () => {
    const toolbox = await freshToolbox();
    const error = await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksTool, testSource: countLinksShapeOnlyTest(web.pages.article), fetch }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolVerificationError);
    expect((error as ToolVerificationError).failures.join('\n')).toMatch(/also passed against .*a stub that always returns \{\}/);
    expect((error as ToolVerificationError).failures.join('\n')).toMatch(/a stub that returns its input unchanged/);
    expect(toolbox.list()).toEqual([]);
    await rm(home, { recursive: true, force: true });
  });

  it('rejects a buggy tool with the failing assertion, and a tool that uses an undeclared capability', async () => {
    const toolbox = await freshToolbox();
    const buggy = await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksBuggyTool, testSource, fetch }).catch((caught: unknown) => caught);
    expect((buggy as ToolVerificationError).failures.join('\n')).toMatch(/assert\.equal failed: counts every link/);
    const undeclared = await addVerifiedTool(toolbox, new ToolRegistry(), { toolSource: countLinksUndeclaredTool, testSource, fetch }).catch((caught: unknown) => caught);
    expect(undeclared).toBeInstanceOf(ToolVerificationError);
    expect((undeclared as ToolVerificationError).failures.join('\n')).toMatch(/CapabilityNotGrantedError|fetch/);
    expect(toolbox.list()).toEqual([]);
    await rm(home, { recursive: true, force: true });
  });

  it('refuses broken manifests by name instead of overwriting them', async () => {
    const corpus = path.join(import.meta.dirname, 'fixtures', 'synthesis', 'manifest-corpus');
    const cases: Array<[string, RegExp]> = [
      ['not-json.json', /not JSON/],
      ['missing-version.json', /no "version" field/],
      ['future-version.json', /version 2 is not supported/],
      ['bad-status.json', /tools\.0\.status/],
      ['duplicate-name.json', /listed twice: count_links/],
      ['path-name.json', /tools\.0\.name: must be a tool name/],
    ];
    for (const [file, message] of cases) {
      const folder = await mkdtemp(path.join(tmpdir(), 'forge-manifest-'));
      await writeFile(path.join(folder, 'manifest.json'), await readFile(path.join(corpus, file), 'utf8'));
      const error = await Toolbox.open(folder).catch((caught: unknown) => caught);
      expect(error, file).toBeInstanceOf(ToolboxManifestError);
      expect((error as Error).message, file).toMatch(message);
      await rm(folder, { recursive: true, force: true });
    }
    const current = await Toolbox.open(path.join(corpus, 'v1-current'));
    expect(current.list().map((tool) => [tool.name, tool.status])).toEqual([['count_links', 'promoted'], ['extract_dates', 'failed']]);
    expect(current.promoted().map((tool) => tool.name)).toEqual(['count_links']);
  });
});
