import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QuotaExceededError } from '../src/accounts/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';

/**
 * The admission of a start under a flood (issue 26), on the runtime's front door with the embedded
 * store: a start past its account's quota is refused before anything is resolved or written (no run,
 * no conversation, no model call), also when many race for the last places; and while one account
 * floods its quota, another account's run is admitted and completes.
 */
describe('run admission under a flood of starts', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let annId: string;
  let benId: string;
  /** Holds every `hold` tool call until the test releases it: ann's admitted runs stay running meanwhile. */
  let release: () => void = () => undefined;
  /** Ann's runs admitted by the first test, held running. */
  let annHeld: { result(): Promise<{ status: string }> }[] = [];
  const held = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: 'hold the line', hasToolResult: false }, { toolCalls: [{ id: 'hold_1', name: 'hold', arguments: {} }] });
    mock.on({ toolCallId: 'hold_1' }, { content: 'Held.' });
    mock.on({ userMessage: 'a quick question', hasToolResult: false }, { content: 'Quick answer.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-quota-admission-'));
    runtime = await openRuntime({ FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1` }, home, { mcp: { startupWaitMs: 0 } });
    runtime.registry.register(defineTool({ name: 'hold', description: 'Waits.', inputSchema: z.object({}), risk: 'low', sideEffect: 'read', execute: async () => (await held, 'held') }));
    annId = (await runtime.accounts.addUser({ email: 'ann@example.com', password: PASSWORD })).id;
    benId = (await runtime.accounts.addUser({ email: 'ben@example.com', password: PASSWORD })).id;
    await runtime.quotas.set(annId, { concurrent_runs: 3 });
  });
  afterAll(async () => {
    release();
    await runtime?.close();
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  /** What an account has in the store: its runs and its conversations. */
  async function rowsOf(userId: string): Promise<{ runs: number; conversations: number }> {
    const ownedBy = { userId, includeUnowned: false };
    return { runs: (await runtime.store.runs.list({ ownedBy, limit: 1000 })).length, conversations: (await runtime.store.conversations.list({ ownedBy, limit: 1000 })).length };
  }

  function startAs(userId: string, task: string, model = MODEL) {
    return runtime.runs.submit({ kind: 'agent_task', task, model }, { userId });
  }

  it('admits exactly 3 of 12 starts made at once against a quota of 3; the 9 refused leave no run and no conversation', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => startAs(annId, 'hold the line')));

    const admitted = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    annHeld = admitted;
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(admitted).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const error of refused) expect(error).toBeInstanceOf(QuotaExceededError);
    // Each admitted run has its conversation; a refused start has neither.
    expect(await rowsOf(annId)).toEqual({ runs: 3, conversations: 3 });
  });

  it('refuses a burst of starts past the quota before resolving a model or writing anything', async () => {
    const before = await rowsOf(annId);
    const calls = mock.getRequests().length;

    const refusals = await Promise.allSettled(Array.from({ length: 40 }, () => startAs(annId, 'hold the line')));
    // A model nobody configured is not even looked at: the quota refuses first.
    const unresolvable = await startAs(annId, 'hold the line', 'anthropic:claude-sonnet-4-5').then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(refusals.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof QuotaExceededError)).toBe(true);
    expect(unresolvable).toBeInstanceOf(QuotaExceededError);
    expect((unresolvable as QuotaExceededError).refusal).toMatchObject({ quota: 'concurrent_runs', limit: 3, used: 3 });
    expect(await rowsOf(annId)).toEqual(before);
    expect(mock.getRequests().length).toBe(calls);
  });

  it('while one account floods its quota, another account\'s run is admitted and completes', async () => {
    let flooding = true;
    let refusedDuringFlood = 0;
    // 50 starters that try again at once, each in its next turn, for as long as ben's run goes on.
    const flood = Array.from({ length: 50 }, async () => {
      while (flooding) {
        await startAs(annId, 'hold the line').then(
          () => expect.unreachable('ann holds her whole quota: no start of hers is admitted'),
          (error: unknown) => {
            expect(error).toBeInstanceOf(QuotaExceededError);
            refusedDuringFlood += 1;
          },
        );
        await nextTurn();
      }
    });
    const before = await rowsOf(annId);
    // Ben's start comes once the flood is going.
    while (refusedDuringFlood < 50) await nextTurn();

    const run = await startAs(benId, 'a quick question');
    const result = await run.result();
    flooding = false;
    await Promise.all(flood);

    expect(result).toMatchObject({ status: 'completed', answer: 'Quick answer.' });
    expect(await rowsOf(benId)).toEqual({ runs: 1, conversations: 1 });
    expect(refusedDuringFlood).toBeGreaterThanOrEqual(50);
    expect(await rowsOf(annId)).toEqual(before);

    // Ann's held runs go on and complete once released; then she starts again.
    release();
    expect((await Promise.all(annHeld.map((annRun) => annRun.result()))).map((annResult) => annResult.status)).toEqual(['completed', 'completed', 'completed']);
    expect(await (await startAs(annId, 'a quick question')).result()).toMatchObject({ status: 'completed' });
  });
});
