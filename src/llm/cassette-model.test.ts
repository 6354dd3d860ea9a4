import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAgent, refuseApprovals } from '../engine/index.js';
import { builtInPolicy } from '../policy/index.js';
import { defineTool, type GuardedFetch } from '../core/index.js';
import { InProcessEventBus, createRunEmitter } from '../events/index.js';
import { ToolRegistry } from '../tools/index.js';
import { CassetteMismatchError, cassetteSchema, createCassettePlayer, readCassette } from './cassette-model.js';
import { CostMeter } from './cost-meter.js';
import { resolveModel, type ResolvedModel } from './resolve-model.js';

const noNetwork: GuardedFetch = async () => {
  throw new Error('no network in this test');
};

async function run(task: string, model: ResolvedModel, port: string) {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: 'lookup',
      description: 'Looks up a key.',
      inputSchema: z.object({ key: z.string() }),
      risk: 'low',
      sideEffect: 'read',
      async execute({ key }) {
        return { key, served_by: `http://127.0.0.1:${port}/facts/${key}` };
      },
    }),
  );
  const emitter = createRunEmitter(new InProcessEventBus(), 'run-cassette');
  return runAgent({
    task,
    model,
    registry,
    emitter,
    meter: new CostMeter(emitter.runId),
    policy: builtInPolicy,
    approvals: refuseApprovals,
    toolContext: { fetch: noNetwork, utilityModel: undefined },
    maxRetries: 0,
  });
}

describe('cassette model: record a real session, play it back turn by turn', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let folder: string;
  let file: string;

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: 'facts about alpha', hasToolResult: false }, { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { key: 'alpha' } }], usage: { prompt_tokens: 100, completion_tokens: 9 } });
    mock.on({ userMessage: 'facts about alpha', hasToolResult: true }, { content: 'Alpha is known.', usage: { prompt_tokens: 160, completion_tokens: 4 } });
    folder = await mkdtemp(path.join(tmpdir(), 'forge-cassette-'));
    file = path.join(folder, 'session.json');
  });

  afterAll(async () => {
    await mock.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('records through cassette:<file> with FORGE_CASSETTE_RECORD, then plays back with no request to the model, substituting what moved', async () => {
    const env = { FORGE_CASSETTE_RECORD: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` };
    const recorded = await run('facts about alpha', resolveModel(`cassette:${file}`, env), '1111');
    expect(recorded).toMatchObject({ status: 'completed', answer: 'Alpha is known.', llm_calls: 2, tokens: { input: 260, output: 13 } });
    const cassette = cassetteSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(cassette.turns).toHaveLength(2);
    expect(cassette.model).toBe('openai:gpt-4.1-mini');

    const requestsBefore = mock.getRequests().length;
    const played = await run('facts about alpha', resolveModel(`cassette:${file}`, {}), '1111');
    expect(played).toMatchObject({ status: 'completed', answer: 'Alpha is known.', llm_calls: 2, tokens: { input: 260, output: 13 } });
    expect(mock.getRequests().length).toBe(requestsBefore);

    // A session recorded on one port plays back on another when the port is a substitution.
    const portable = { ...cassette, turns: cassette.turns.map((turn) => JSON.parse(JSON.stringify(turn).replaceAll('1111', '{{port}}'))) };
    const moved = await run('facts about alpha', { slug: 'cassette:session', provider: 'cassette', model: createCassettePlayer(portable, { port: '2222' }) }, '2222');
    expect(moved.status).toBe('completed');
  });

  it('stops with a clear error when the session asks something that was not recorded', async () => {
    const result = await run('facts about beta', resolveModel(`cassette:${file}`, {}), '1111');
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ name: 'CassetteMismatchError' });
    expect(result.error?.message).toMatch(/^Cassette turn 0: message 0 differs: recorded .*alpha.* but was asked .*beta/);

    const changedTool = await run('facts about alpha', resolveModel(`cassette:${file}`, {}), '9999');
    expect(changedTool.error?.message).toContain('Cassette turn 1: message 2 differs');
    expect(new CassetteMismatchError(3, 'x').hint).toContain('FORGE_CASSETTE_RECORD');
  });

  it('explains how to record a cassette that does not exist yet', () => {
    expect(() => readCassette(path.join(folder, 'missing.json'))).toThrow(/does not exist/);
    expect(() => resolveModel(`cassette:${path.join(folder, 'missing.json')}`, {})).toThrow(expect.objectContaining({ name: 'ModelNotConfiguredError', hint: expect.stringContaining('FORGE_CASSETTE_RECORD=') }));
  });
});
