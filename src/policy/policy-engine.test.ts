import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type PolicyRequest, type Store } from '../core/index.js';
import { openStore } from '../adapters/store/index.js';
import { ToolRegistry } from '../tools/index.js';
import { PolicyEngine } from './policy-engine.js';
import { PolicyService } from './policy-service.js';

const shell = defineTool({
  name: 'shell',
  description: 'Runs a command.',
  inputSchema: z.object({ command: z.string() }),
  risk: 'high',
  sideEffect: 'write',
  execute: async () => 'ran',
});

function call(command: string, runId = 'r1'): PolicyRequest {
  return { runId, callId: 'c1', tool: 'shell', risk: 'high', sideEffect: 'write', input: { command } };
}

describe('PolicyEngine over a stored policy', () => {
  let folder: string;
  let url: string;
  const opened: Store[] = [];

  async function open(now?: () => number) {
    const store = await openStore({ url });
    opened.push(store);
    const registry = new ToolRegistry();
    registry.register(shell);
    const engine = new PolicyEngine({ store: store.policies, workspace: folder, ...(now === undefined ? {} : { now }) });
    return { store, engine, service: new PolicyService({ store: store.policies, engine, registry }) };
  }

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'forge-policy-'));
    url = `file:${path.join(folder, 'forge.db')}`;
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps a conditional rule across a restart: a new process decides the same', async () => {
    const first = await open();
    const change = await first.service.setRule('installation', { tool: 'shell', decision: 'block', when: [{ argument: 'command', matches: 'rm\\s+-rf' }] }, { author: 'ada', message: 'no wipes' });
    expect(change).toMatchObject({ version: 1, warnings: [] });
    expect((await first.engine.decide(call('rm -rf /srv'))).decision).toBe('block');
    await first.store.close();
    opened.length = 0;

    const second = await open();
    const blocked = await second.engine.decide(call('rm  -rf build'));
    expect(blocked).toMatchObject({ decision: 'block', rule: expect.stringContaining('installation v1 rule 1 (shell: block when command matches') });
    expect((await second.engine.decide(call('ls'))).decision).toBe('require_approval');
    expect(await second.service.versions('installation')).toEqual([expect.objectContaining({ version: 1, author: 'ada', message: 'no wipes' })]);
  });

  it('applies a rule saved by another process once its read is older than the refresh time, and its own at once', async () => {
    let clock = 1_000_000;
    const reader = await open(() => clock);
    const writer = await open();
    expect((await reader.engine.decide(call('ls'))).decision).toBe('require_approval');
    await writer.service.setRule('installation', { tool: 'shell', decision: 'block' }, { author: 'other process' });
    expect((await reader.engine.decide(call('ls'))).decision).toBe('require_approval');
    clock += 1_000;
    expect((await reader.engine.decide(call('ls'))).decision).toBe('block');
    await reader.service.setRule('installation', { tool: 'shell', decision: 'allow' }, { author: 'this process' });
    expect((await reader.engine.decide(call('ls'))).decision).toBe('allow');
  });

  it("applies the run's own rules to that run only, and only to tighten", async () => {
    const { engine, service } = await open();
    await service.setDefault('installation', 'high', 'allow', { author: 'ada' });
    await service.setRule('run:r1', { tool: 'shell', decision: 'block' }, { author: 'ada' });
    await service.setRule('run:r2', { tool: 'shell', decision: 'allow' }, { author: 'ada' });
    expect((await engine.decide(call('ls', 'r1'))).decision).toBe('block');
    expect((await engine.decide(call('ls', 'r2'))).decision).toBe('allow');
    expect((await engine.decide(call('ls', 'r3'))).decision).toBe('allow');
  });

  it('blocks every call a stored document governs when it does not validate, naming it', async () => {
    const { store, engine } = await open();
    await store.policies.save({ scope: 'installation', document: { version: 1, rules: [{ tool: 'shell', decision: 'sometimes' }] }, author: 'hand edit', message: 'broken' });
    expect(await engine.decide(call('ls'))).toMatchObject({ decision: 'block', reason: expect.stringContaining('installation (v1) does not validate') });
  });

  it('refuses invalid changes with the issue named, and saves nothing', async () => {
    const { service } = await open();
    await expect(service.setRule('installation', { tool: 'shell', decision: 'block', when: [{ argument: 'command', matches: '(a+)\\1' }] }, { author: 'ada' })).rejects.toThrow(/when\.0\.matches: is not a pattern that runs in linear time/);
    await expect(service.setRule('nowhere', { tool: 'shell', decision: 'block' }, { author: 'ada' })).rejects.toThrow(/must be installation, agent:<slug>/);
    await expect(service.replace('installation', { version: 2, rules: [] }, { author: 'ada' })).rejects.toThrow(/version/);
    expect(await service.versions('installation')).toEqual([]);
    const warned = await service.setRule('installation', { tool: 'shel', decision: 'block' }, { author: 'ada' });
    expect(warned.warnings).toEqual([expect.stringContaining('no tool in the catalog now is named shel')]);
  });

  it('rolls back by saving the earlier document as the newest version, and explains a call with its trace', async () => {
    const { service } = await open();
    await service.setRule('installation', { tool: 'shell', decision: 'block' }, { author: 'ada' });
    await service.setRule('installation', { tool: 'shell', decision: 'allow' }, { author: 'ada' });
    const rolled = await service.rollback('installation', 1, { author: 'ada' });
    expect(rolled).toMatchObject({ version: 3, document: { rules: [{ tool: 'shell', decision: 'block' }] } });
    const explained = await service.test({ tool: 'shell', input: { command: 'ls' }, scopes: ['agent:toolsmith'] });
    expect(explained).toMatchObject({ tool: 'shell', risk: 'high', sideEffect: 'write', verdict: { decision: 'block' }, layers: [{ scope: 'installation', version: 3 }] });
    expect(explained.trace).toEqual(['built-in default for high risk: require_approval', 'installation v3 rule 1 (shell: block): block']);
    await expect(service.test({ tool: 'shell', input: { command: 42 } })).rejects.toThrow(/command/);
  });
});
