import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type ForgeEvent, type ModelCallRecord, type NewMessage, type NewRun, type NewStep, type Store, type ToolboxRecord, type ToolboxRecordStatus } from '../core/index.js';
import { DuplicateRecordError } from './duplicate-record-error.js';

/** A store handed to the contract suite, with what the suite needs around it. */
export interface StoreUnderTest {
  readonly store: Store;
  /**
   * Opens a new store on the same database, after the suite has closed `store`. Give it for databases
   * that outlive their store (files, servers); leave it out for ones that vanish on close (memory).
   */
  readonly reopen?: () => Promise<Store>;
  /** Closes every store this subject handed out, `store` and reopened ones, and removes the database. */
  cleanup(): Promise<void>;
}

/**
 * The behaviour every `Store` implementation must have, as one vitest suite written against the
 * interface alone: the libSQL store and the PostgreSQL store run exactly these tests.
 * `createStore` is called once per test and must return an empty, migrated database.
 */
export function describeStoreContract(name: string, createStore: () => Promise<StoreUnderTest>, options: { durable: boolean }): void {
  describe(`Store contract: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: Store;

    beforeEach(async () => {
      subject = await createStore();
      store = subject.store;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    describe('runs', () => {
      it('creates a running run with nothing spent yet, and gets it back', async () => {
        const created = await store.runs.create({ id: 'run-1', task: 'find the 日本語 docs', model: 'openai:gpt-4.1-mini', conversationId: 'conversation-1' });

        expect(created).toEqual({
          id: 'run-1',
          kind: 'agent',
          task: 'find the 日本語 docs',
          model: 'openai:gpt-4.1-mini',
          status: 'running',
          haltReason: null,
          answer: null,
          conversationId: 'conversation-1',
          llmCalls: 0,
          inputTokens: 0,
          outputTokens: 0,
          costUsd: 0,
          error: null,
          owner: null,
          logFile: null,
          createdAt: expect.stringMatching(isoUtc),
          updatedAt: created.createdAt,
        });
        expect(await store.runs.get('run-1')).toEqual(created);
      });

      it('keeps what a run is, who runs it and where its log is, and lists runs by status', async () => {
        const owner = { pid: 4242, host: 'worker-a' };
        const replay = await store.runs.create({ id: 'run-skill', task: 'skill notes: tides', model: 'none', conversationId: null, kind: 'skill', owner, logFile: '/home/forge/runs/x-run-skill.jsonl' });
        await store.runs.create({ id: 'run-call', task: 'tool read_url', model: 'none', conversationId: null, kind: 'tool-call', owner });
        await store.runs.update('run-call', { status: 'completed', haltReason: 'final_answer' });

        expect(replay).toMatchObject({ kind: 'skill', owner, logFile: '/home/forge/runs/x-run-skill.jsonl' });
        expect((await store.runs.list({ statuses: ['running', 'waiting'] })).map((run) => run.id)).toEqual(['run-skill']);
        expect((await store.runs.list({ statuses: ['completed'] })).map((run) => [run.id, run.kind])).toEqual([['run-call', 'tool-call']]);
        expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-call', 'run-skill']);
      });

      it('gets nothing for an unknown id', async () => {
        expect(await store.runs.get('missing')).toBeUndefined();
      });

      it('updates only the given fields and keeps the rest', async () => {
        const created = await store.runs.create(newRun('run-1'));

        const finished = await store.runs.update('run-1', {
          status: 'completed',
          haltReason: 'final_answer',
          answer: 'Paris — capitale 🇫🇷',
          llmCalls: 3,
          inputTokens: 1200,
          outputTokens: 345,
          costUsd: 0.00123,
        });

        expect(finished).toEqual({
          ...created,
          status: 'completed',
          haltReason: 'final_answer',
          answer: 'Paris — capitale 🇫🇷',
          llmCalls: 3,
          inputTokens: 1200,
          outputTokens: 345,
          costUsd: 0.00123,
          updatedAt: expect.stringMatching(isoUtc),
        });
        expect(finished.updatedAt >= created.createdAt).toBe(true);
        expect(await store.runs.get('run-1')).toEqual(finished);

        const priced = await store.runs.update('run-1', { costUsd: null, error: 'model price unknown' });
        expect(priced.costUsd).toBeNull();
        expect(priced.error).toBe('model price unknown');
        expect(priced.answer).toBe('Paris — capitale 🇫🇷');
        expect((await store.runs.get('run-1'))?.costUsd).toBeNull();
      });

      it('refuses to update a run that does not exist, and creates none', async () => {
        const error = await rejectionOf(store.runs.update('missing', { status: 'failed' }));

        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ name: 'NotFoundError', kind: 'run', id: 'missing' });
        expect(await store.runs.list()).toEqual([]);
      });

      it('refuses a second run with the same id and keeps the first', async () => {
        const first = await store.runs.create(newRun('run-1'));

        const error = await rejectionOf(store.runs.create({ ...newRun('run-1'), task: 'another task' }));

        expect(error).toBeInstanceOf(DuplicateRecordError);
        expect(error).toMatchObject({ kind: 'run', key: { id: 'run-1' } });
        expect(await store.runs.list()).toEqual([first]);
      });

      it('lists runs newest first, up to the limit', async () => {
        for (const id of ['run-a', 'run-b', 'run-c']) {
          await store.runs.create(newRun(id));
        }

        expect((await store.runs.list()).map((run) => run.id)).toEqual(['run-c', 'run-b', 'run-a']);
        expect((await store.runs.list({ limit: 2 })).map((run) => run.id)).toEqual(['run-c', 'run-b']);
        expect(await store.runs.list({ limit: 0 })).toEqual([]);
      });

      it('refuses a limit that is negative or fractional rather than returning other rows', async () => {
        await store.runs.create(newRun('run-1'));

        await expect(store.runs.list({ limit: -1 })).rejects.toThrow(RangeError);
        await expect(store.runs.list({ limit: 1.5 })).rejects.toThrow(RangeError);
      });
    });

    describe('appending many events', () => {
      it('appends a batch larger than one statement in seq order', async () => {
        await store.runs.create(newRun('run-1'));
        const events = Array.from({ length: 250 }, (_, seq) => toolCallStartEvent('run-1', seq, { seq }));
        await store.events.appendAll(events);
        expect((await store.events.list('run-1')).map((event) => event.seq)).toEqual(events.map((event) => event.seq));
      });

      it('records batches of steps and model calls in order', async () => {
        await store.runs.create(newRun('run-1'));
        await store.steps.recordAll(
          Array.from({ length: 150 }, (_, index) => ({ runId: 'run-1', index, callId: `call-${index}`, tool: 'web_search', input: { index }, output: 'ok', error: null, durationMs: 1 })),
        );
        await store.modelCalls.recordAll(Array.from({ length: 120 }, (_, index) => modelCall({ runId: 'run-1', inputTokens: index, costUsd: null })));
        const steps = await store.steps.list('run-1');
        expect(steps.map((step) => step.index)).toEqual(Array.from({ length: 150 }, (_, index) => index));
        expect(steps[149]!.input).toEqual({ index: 149 });
        const calls = await store.modelCalls.list('run-1');
        expect(calls.map((call) => call.inputTokens)).toEqual(Array.from({ length: 120 }, (_, index) => index));
        expect(calls.every((call) => call.costUsd === null)).toBe(true);
      });

      it('refuses a duplicate seq in a batch and writes none of that batch', async () => {
        await store.runs.create(newRun('run-1'));
        await store.events.append(runStartEvent('run-1', 0));
        await expect(store.events.appendAll([toolCallStartEvent('run-1', 1, {}), runStartEvent('run-1', 0)])).rejects.toBeInstanceOf(DuplicateRecordError);
        expect(await store.events.list('run-1')).toHaveLength(1);
      });
    });

    describe('transactions', () => {
      it('commits every write of a transaction together', async () => {
        await store.runs.create(newRun('run-1'));
        await store.transaction(async (writes) => {
          await writes.events.append(runStartEvent('run-1', 0));
          await writes.steps.record({ runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: { query: 'q' }, output: 'ok', error: null, durationMs: 3 });
          await writes.modelCalls.record(modelCall({ runId: 'run-1' }));
          await writes.runs.update('run-1', { status: 'completed', llmCalls: 1 });
        });
        expect(await store.events.list('run-1')).toHaveLength(1);
        expect(await store.steps.list('run-1')).toHaveLength(1);
        expect(await store.modelCalls.list('run-1')).toHaveLength(1);
        expect(await store.runs.get('run-1')).toMatchObject({ status: 'completed', llmCalls: 1 });
      });

      it('writes nothing when any write of the transaction fails, and rethrows the failure', async () => {
        await store.runs.create(newRun('run-1'));
        await store.events.append(runStartEvent('run-1', 0));
        await expect(
          store.transaction(async (writes) => {
            await writes.events.append(toolCallStartEvent('run-1', 1, { a: 1 }));
            await writes.modelCalls.record(modelCall({ runId: 'run-1' }));
            await writes.events.append(runStartEvent('run-1', 0));
          }),
        ).rejects.toBeInstanceOf(DuplicateRecordError);
        expect(await store.events.list('run-1')).toHaveLength(1);
        expect(await store.modelCalls.list('run-1')).toEqual([]);
        // The store is still usable after the rollback.
        await store.events.append(toolCallStartEvent('run-1', 1, { a: 1 }));
        expect(await store.events.list('run-1')).toHaveLength(2);
      });

      it('runs many concurrent transactions, each yielding mid-way, alongside plain writes, and loses none', async () => {
        const ids = Array.from({ length: 12 }, (_, index) => `run-${index}`);
        await Promise.all(ids.map((id) => store.runs.create(newRun(id))));
        // Each transaction yields to the event loop between its writes, as the run recorder's do, while
        // other runs write outside any transaction: one process's runs must never lock each other out.
        await Promise.all(
          ids.flatMap((id) => [
            store.transaction(async (writes) => {
              await writes.events.append(runStartEvent(id, 0));
              await new Promise((resolve) => setTimeout(resolve, 5));
              await writes.runs.update(id, { llmCalls: 1 });
            }),
            store.runs.create(newRun(`${id}-side`)),
          ]),
        );
        for (const id of ids) {
          expect(await store.events.list(id)).toHaveLength(1);
          expect(await store.runs.get(id)).toMatchObject({ llmCalls: 1 });
          expect(await store.runs.get(`${id}-side`)).toMatchObject({ status: 'running' });
        }
      });
    });

    describe('events', () => {
      it('lists a run\'s events in seq order, exactly as appended', async () => {
        await store.runs.create(newRun('run-1'));
        const events = [runStartEvent('run-1', 0), toolCallStartEvent('run-1', 1, awkwardJson), textEvent('run-1', 2, 'done ✅')];

        for (const event of [events[2], events[0], events[1]]) {
          await store.events.append(definedValue(event));
        }

        const listed = await store.events.list('run-1');
        expect(listed).toEqual(events);
        expect(JSON.stringify(listed)).toBe(JSON.stringify(events));
      });

      it('keeps each run\'s events apart', async () => {
        await store.runs.create(newRun('run-1'));
        await store.runs.create(newRun('run-2'));
        await store.events.append(textEvent('run-1', 0, 'first run'));
        await store.events.append(textEvent('run-2', 0, 'second run'));
        await store.events.append(textEvent('run-2', 1, 'second run again'));

        expect(await store.events.list('run-1')).toEqual([textEvent('run-1', 0, 'first run')]);
        expect((await store.events.list('run-2')).map((event) => event.seq)).toEqual([0, 1]);
        expect(await store.events.list('run-unknown')).toEqual([]);
      });

      it('refuses a second event with the same run and seq and keeps the first', async () => {
        await store.runs.create(newRun('run-1'));
        await store.events.append(textEvent('run-1', 0, 'original'));

        const error = await rejectionOf(store.events.append(textEvent('run-1', 0, 'impostor')));

        expect(error).toBeInstanceOf(DuplicateRecordError);
        expect(error).toMatchObject({ kind: 'event', key: { runId: 'run-1', seq: 0 } });
        expect(await store.events.list('run-1')).toEqual([textEvent('run-1', 0, 'original')]);
      });

      it('refuses an event of a run that was never created', async () => {
        const error = await rejectionOf(store.events.append(textEvent('run-unknown', 0, 'orphan')));

        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ kind: 'run', id: 'run-unknown' });
        expect(await store.events.list('run-unknown')).toEqual([]);
      });
    });

    describe('steps', () => {
      it('lists a run\'s steps in index order with inputs exactly as recorded', async () => {
        await store.runs.create(newRun('run-1'));
        const steps: NewStep[] = [
          { runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: awkwardJson, output: 'résultats 🔎', error: null, durationMs: 12.5 },
          { runId: 'run-1', index: 1, callId: 'call-1', tool: 'fetch_page', input: null, output: null, error: 'NetworkBlockedError: 10.0.0.1', durationMs: 3 },
          { runId: 'run-1', index: 2, callId: 'call-2', tool: 'final_answer', input: ['a', { b: [1, 2] }], output: 'ok', error: null, durationMs: 0 },
        ];

        for (const step of [steps[1], steps[2], steps[0]]) {
          await store.steps.record(definedValue(step));
        }

        const listed = await store.steps.list('run-1');
        expect(listed).toEqual(steps.map((step) => ({ ...step, createdAt: expect.stringMatching(isoUtc) })));
        expect(JSON.stringify(listed[0]?.input)).toBe(JSON.stringify(awkwardJson));
        expect(listed[1]?.input).toBeNull();
        expect(await store.steps.list('run-unknown')).toEqual([]);
      });

      it('refuses a second step with the same index, and a step of an unknown run', async () => {
        await store.runs.create(newRun('run-1'));
        const step: NewStep = { runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: { q: 'x' }, output: 'first', error: null, durationMs: 1 };
        await store.steps.record(step);

        const duplicate = await rejectionOf(store.steps.record({ ...step, callId: 'call-other', output: 'second' }));
        const orphan = await rejectionOf(store.steps.record({ ...step, runId: 'run-unknown' }));

        expect(duplicate).toBeInstanceOf(DuplicateRecordError);
        expect(duplicate).toMatchObject({ kind: 'step', key: { runId: 'run-1', index: 0 } });
        expect(orphan).toBeInstanceOf(NotFoundError);
        expect(orphan).toMatchObject({ kind: 'run', id: 'run-unknown' });
        expect((await store.steps.list('run-1')).map((listed) => listed.output)).toEqual(['first']);
        expect(await store.steps.list('run-unknown')).toEqual([]);
      });
    });

    describe('conversations', () => {
      it('creates conversations with a given or a generated id, and gets them back', async () => {
        const named = await store.conversations.create({ id: 'conversation-1', title: 'Trip to Kyoto 京都' });
        const generated = await store.conversations.create();

        expect(named).toEqual({ id: 'conversation-1', title: 'Trip to Kyoto 京都', createdAt: expect.stringMatching(isoUtc) });
        expect(generated.id).not.toBe('');
        expect(generated.id).not.toBe(named.id);
        expect(generated.title).toBeNull();
        expect(await store.conversations.get('conversation-1')).toEqual(named);
        expect(await store.conversations.get(generated.id)).toEqual(generated);
        expect(await store.conversations.get('missing')).toBeUndefined();
      });

      it('lists conversations newest first, up to the limit', async () => {
        for (const id of ['conversation-a', 'conversation-b', 'conversation-c']) {
          await store.conversations.create({ id });
        }

        expect((await store.conversations.list()).map((conversation) => conversation.id)).toEqual(['conversation-c', 'conversation-b', 'conversation-a']);
        expect((await store.conversations.list({ limit: 1 })).map((conversation) => conversation.id)).toEqual(['conversation-c']);
      });

      it('refuses a second conversation with the same id and keeps the first', async () => {
        const first = await store.conversations.create({ id: 'conversation-1', title: 'first' });

        const error = await rejectionOf(store.conversations.create({ id: 'conversation-1', title: 'second' }));

        expect(error).toBeInstanceOf(DuplicateRecordError);
        expect(error).toMatchObject({ kind: 'conversation', key: { id: 'conversation-1' } });
        expect(await store.conversations.list()).toEqual([first]);
      });
    });

    describe('messages', () => {
      it('appends in order across calls and returns what it stored', async () => {
        await store.conversations.create({ id: 'conversation-1' });

        const first = await store.conversations.appendMessages('conversation-1', [textMessage('user', 'one'), textMessage('assistant', 'two')]);
        const second = await store.conversations.appendMessages('conversation-1', [textMessage('user', 'three')]);

        const listed = await store.conversations.listMessages('conversation-1');
        expect(listed).toEqual([...first, ...second]);
        expect(listed.map((message) => message.content)).toEqual(['one', 'two', 'three']);
        expect(listed.map((message) => message.conversationId)).toEqual(['conversation-1', 'conversation-1', 'conversation-1']);
        expect(listed.every((message) => isoUtc.test(message.createdAt))).toBe(true);
        const ids = listed.map((message) => message.id);
        expect(ids).toEqual([...ids].sort((left, right) => left - right));
        expect(new Set(ids).size).toBe(3);
      });

      it('keeps each conversation\'s messages apart', async () => {
        await store.conversations.create({ id: 'conversation-1' });
        await store.conversations.create({ id: 'conversation-2' });
        await store.conversations.appendMessages('conversation-1', [textMessage('user', 'for one')]);
        await store.conversations.appendMessages('conversation-2', [textMessage('user', 'for two'), textMessage('assistant', 'also two')]);

        expect((await store.conversations.listMessages('conversation-1')).map((message) => message.content)).toEqual(['for one']);
        expect((await store.conversations.listMessages('conversation-2')).map((message) => message.content)).toEqual(['for two', 'also two']);
        expect(await store.conversations.listMessages('conversation-unknown')).toEqual([]);
      });

      it('lists only the newest N messages with lastN, still oldest first', async () => {
        await store.conversations.create({ id: 'conversation-1' });
        await store.conversations.appendMessages('conversation-1', ['m0', 'm1', 'm2', 'm3', 'm4'].map((text) => textMessage('user', text)));

        const contents = async (lastN: number) =>
          (await store.conversations.listMessages('conversation-1', { lastN })).map((message) => message.content);
        expect(await contents(2)).toEqual(['m3', 'm4']);
        expect(await contents(5)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
        expect(await contents(50)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
        expect(await contents(0)).toEqual([]);
        await expect(store.conversations.listMessages('conversation-1', { lastN: -2 })).rejects.toThrow(RangeError);
      });

      it('round-trips content and tool-call ids exactly', async () => {
        await store.runs.create(newRun('run-1'));
        await store.conversations.create({ id: 'conversation-1' });
        const assistant: NewMessage = {
          runId: 'run-1',
          role: 'assistant',
          content: [
            { type: 'text', text: 'Je cherche… 🔍' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'web_search', input: awkwardJson },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'fetch_page', input: { url: 'https://example.com/ü?q=1&r=2' } },
          ],
          toolCallIds: ['call_1', 'call_2'],
          model: 'anthropic:claude-sonnet-4-6',
          inputTokens: 812,
          outputTokens: 64,
        };
        const tool: NewMessage = {
          runId: 'run-1',
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'web_search', output: { type: 'json', value: { results: [] } } }],
          toolCallIds: ['call_1'],
          model: null,
          inputTokens: null,
          outputTokens: null,
        };

        await store.conversations.appendMessages('conversation-1', [assistant, tool]);

        const listed = await store.conversations.listMessages('conversation-1');
        expect(listed).toEqual([
          { ...assistant, id: expect.any(Number), conversationId: 'conversation-1', createdAt: expect.stringMatching(isoUtc) },
          { ...tool, id: expect.any(Number), conversationId: 'conversation-1', createdAt: expect.stringMatching(isoUtc) },
        ]);
        expect(JSON.stringify(listed[0]?.content)).toBe(JSON.stringify(assistant.content));
        expect(listed[1]?.model).toBeNull();
        expect(listed[1]?.inputTokens).toBeNull();
      });

      it('writes no message of a batch that has one invalid message', async () => {
        await store.conversations.create({ id: 'conversation-1' });
        await store.conversations.appendMessages('conversation-1', [textMessage('user', 'kept 1'), textMessage('assistant', 'kept 2')]);
        // A caller outside TypeScript's reach (a plugin, a JSON API) can send any role.
        const invalid = { ...textMessage('user', 'bad'), role: 'narrator' } as unknown as NewMessage;

        await expect(
          store.conversations.appendMessages('conversation-1', [textMessage('user', 'lost 1'), invalid, textMessage('user', 'lost 2')]),
        ).rejects.toThrow();
        expect((await store.conversations.listMessages('conversation-1')).map((message) => message.content)).toEqual(['kept 1', 'kept 2']);

        await store.conversations.appendMessages('conversation-1', [textMessage('user', 'after')]);
        expect((await store.conversations.listMessages('conversation-1')).map((message) => message.content)).toEqual(['kept 1', 'kept 2', 'after']);
      });

      it('refuses a batch for an unknown conversation and writes none of it', async () => {
        const error = await rejectionOf(store.conversations.appendMessages('conversation-unknown', [textMessage('user', 'a'), textMessage('user', 'b')]));
        const emptyError = await rejectionOf(store.conversations.appendMessages('conversation-unknown', []));

        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ kind: 'conversation', id: 'conversation-unknown' });
        expect(emptyError).toBeInstanceOf(NotFoundError);
        expect(await store.conversations.listMessages('conversation-unknown')).toEqual([]);
        expect(await store.conversations.get('conversation-unknown')).toBeUndefined();
      });

      it('keeps each batch whole and in order when appends run concurrently', async () => {
        await store.conversations.create({ id: 'conversation-1' });
        const batches = Array.from({ length: 8 }, (_, batch) => [0, 1, 2].map((part) => textMessage('user', `${batch}.${part}`)));

        await Promise.all(batches.map((batch) => store.conversations.appendMessages('conversation-1', batch)));

        const contents = (await store.conversations.listMessages('conversation-1')).map((message) => String(message.content));
        expect(contents).toHaveLength(24);
        for (let start = 0; start < contents.length; start += 3) {
          const batch = contents[start]?.split('.')[0];
          expect(contents.slice(start, start + 3)).toEqual([`${batch}.0`, `${batch}.1`, `${batch}.2`]);
        }
        expect(new Set(contents).size).toBe(24);
      });
    });

    describe('model calls', () => {
      it('lists a run\'s calls in the order recorded, with an unknown price kept as null', async () => {
        const unpriced = modelCall({ runId: 'run-1', costUsd: null, inputHash: 'hash-a' });
        const free = modelCall({ runId: 'run-1', costUsd: 0, inputHash: 'hash-b' });
        const priced = modelCall({ runId: 'run-1', costUsd: 0.004215, latencyMs: 812.75, inputHash: 'hash-c' });

        for (const call of [unpriced, modelCall({ runId: 'run-2' }), free, modelCall({ runId: null, purpose: 'utility' }), priced]) {
          await store.modelCalls.record(call);
        }

        const listed = await store.modelCalls.list('run-1');
        expect(listed).toEqual([unpriced, free, priced]);
        expect(listed[0]?.costUsd).toBeNull();
        expect(listed[1]?.costUsd).toBe(0);
        expect(await store.modelCalls.list('run-2')).toHaveLength(1);
        expect(await store.modelCalls.list('run-unknown')).toEqual([]);
      });
    });

    describe('skills', () => {
      const document = { version: 1, name: 'release-notes', steps: [{ tool: 'web_search', arguments: { query: '{{topic}} 最新 release' } }], awkward: awkwardJson };

      it('saves a skill active at version 1, and finds it by id and by name with its document intact', async () => {
        const saved = await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'Latest release notes of a project.', document, note: 'saved from run r1' });

        expect(saved).toEqual({
          id: 'skill-1',
          name: 'release-notes',
          description: 'Latest release notes of a project.',
          document,
          status: 'active',
          staleReason: null,
          version: 1,
          currentVersion: 1,
          createdAt: expect.stringMatching(isoUtc),
          updatedAt: saved.createdAt,
        });
        expect(await store.skills.get('skill-1')).toEqual(saved);
        expect(await store.skills.get('release-notes')).toEqual(saved);
        expect(await store.skills.get('missing')).toBeUndefined();
        expect(await store.skills.versions('release-notes')).toEqual([{ skillId: 'skill-1', version: 1, document, note: 'saved from run r1', parentVersion: null, createdAt: saved.createdAt }]);
      });

      it('adds a version under the same name, keeping its id, makes it current and active again, and keeps every older version readable', async () => {
        const first = await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v1', document, note: 'saved from run r1' });
        await store.skills.setStatus('release-notes', 'stale', 'web_search changed its input schema');

        const second = await store.skills.save({ id: 'skill-2', name: 'release-notes', description: 'v2', document: { ...document, version: 2 }, note: 'recording from run r2 added' });

        expect(second).toMatchObject({ id: 'skill-1', description: 'v2', document: { version: 2 }, status: 'active', staleReason: null, version: 2, currentVersion: 2, createdAt: first.createdAt });
        expect(await store.skills.list()).toEqual([second]);
        expect(await store.skills.get('skill-2')).toBeUndefined();
        expect(await store.skills.get('release-notes', 1)).toMatchObject({ id: 'skill-1', document, version: 1, currentVersion: 2 });
        expect(await store.skills.get('release-notes', 3)).toBeUndefined();
        expect((await store.skills.versions('skill-1')).map((version) => [version.version, version.parentVersion, version.note])).toEqual([
          [1, null, 'saved from run r1'],
          [2, 1, 'recording from run r2 added'],
        ]);
      });

      it('records the version a save derives from when told (a rollback), and never changes an older version', async () => {
        await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v1', document, note: 'saved' });
        await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v2', document: { changed: true }, note: 'edited' });

        const rolledBack = await store.skills.save({ id: 'skill-1', name: 'release-notes', description: 'v1', document, note: 'rolled back to version 1', parentVersion: 1 });

        expect(rolledBack).toMatchObject({ version: 3, document });
        expect((await store.skills.versions('release-notes')).map((version) => [version.version, version.parentVersion])).toEqual([
          [1, null],
          [2, 1],
          [3, 1],
        ]);
        expect((await store.skills.get('release-notes', 2))?.document).toEqual({ changed: true });
      });

      it('marks a skill stale with its reason and active again, and refuses an unknown skill', async () => {
        await store.skills.save({ id: 'skill-1', name: 'release-notes', description: '', document, note: 'saved' });

        const stale = await store.skills.setStatus('skill-1', 'stale', 'output contract failed: step 1 returned nothing');
        expect(stale).toMatchObject({ status: 'stale', staleReason: 'output contract failed: step 1 returned nothing' });
        expect(await store.skills.get('release-notes')).toEqual(stale);
        expect(await store.skills.setStatus('release-notes', 'active', 'ignored')).toMatchObject({ status: 'active', staleReason: null });

        const error = await rejectionOf(store.skills.setStatus('missing', 'stale', 'why'));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ kind: 'skill', id: 'missing' });
      });

      it('lists skills oldest first and deletes by name, versions included', async () => {
        for (const name of ['b-skill', 'a-skill', 'c-skill']) await store.skills.save({ id: `id-${name}`, name, description: name, document, note: 'saved' });

        expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['b-skill', 'a-skill', 'c-skill']);
        expect(await store.skills.delete('a-skill')).toBe(true);
        expect(await store.skills.delete('a-skill')).toBe(false);
        expect(await store.skills.versions('a-skill')).toEqual([]);
        expect((await store.skills.list()).map((skill) => skill.name)).toEqual(['b-skill', 'c-skill']);
      });
    });

    describe('mcp servers', () => {
      const sealed = 'v1.nonce.ciphertext.tag';

      it('creates a server, gets it back by name and lists servers in the order they were added', async () => {
        const created = await store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://mcp.example.org/mcp', sealedHeaders: sealed, enabledTools: null, trustAnnotations: false });
        await store.mcpServers.create({ name: 'alpha', transport: 'sse', url: 'https://legacy.example.org/sse', sealedHeaders: null, enabledTools: ['echo', 'get-sum'], trustAnnotations: true });

        expect(created).toEqual({
          name: 'docs',
          transport: 'streamable-http',
          url: 'https://mcp.example.org/mcp',
          sealedHeaders: sealed,
          enabledTools: null,
          trustAnnotations: false,
          createdAt: expect.stringMatching(isoUtc),
          updatedAt: created.createdAt,
        });
        expect(await store.mcpServers.get('docs')).toEqual(created);
        expect(await store.mcpServers.get('missing')).toBeUndefined();
        expect((await store.mcpServers.list()).map((server) => [server.name, server.enabledTools, server.trustAnnotations])).toEqual([
          ['docs', null, false],
          ['alpha', ['echo', 'get-sum'], true],
        ]);
      });

      it('refuses a second server with a taken name and keeps the first', async () => {
        const first = await store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://one.example.org/mcp', sealedHeaders: null, enabledTools: null, trustAnnotations: false });

        await expect(store.mcpServers.create({ name: 'docs', transport: 'sse', url: 'https://two.example.org/sse', sealedHeaders: null, enabledTools: null, trustAnnotations: false })).rejects.toBeInstanceOf(DuplicateRecordError);
        expect(await store.mcpServers.list()).toEqual([first]);
      });

      it('updates only the given fields, clears enabled tools with null, and deletes', async () => {
        const created = await store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://mcp.example.org/mcp', sealedHeaders: sealed, enabledTools: ['echo'], trustAnnotations: false });

        const updated = await store.mcpServers.update('docs', { url: 'https://moved.example.org/mcp', enabledTools: null });

        expect(updated).toEqual({ ...created, url: 'https://moved.example.org/mcp', enabledTools: null, updatedAt: expect.stringMatching(isoUtc) });
        await expect(store.mcpServers.update('missing', { url: 'https://x.example.org' })).rejects.toBeInstanceOf(NotFoundError);
        expect(await store.mcpServers.delete('docs')).toBe(true);
        expect(await store.mcpServers.delete('docs')).toBe(false);
        expect(await store.mcpServers.list()).toEqual([]);
      });
    });

    describe('toolbox', () => {
      const entry = { name: 'count_links', status: 'promoted', source: 'export default async function run() {}', awkward: awkwardJson };

      function toolboxRecord(name: string, status: ToolboxRecordStatus, updatedAt = '2026-01-02T03:04:05.000Z'): ToolboxRecord {
        return { name, status, entry: { ...entry, name, status }, updatedAt };
      }

      it('puts a record and reads it back exactly, its JSON entry intact', async () => {
        const record = toolboxRecord('count_links', 'promoted');

        await store.toolbox.put(record);

        expect(await store.toolbox.get('count_links')).toEqual(record);
        // Byte for byte, key order included: the entry is the manifest's text, not a reinterpretation of it.
        expect(JSON.stringify((await store.toolbox.get('count_links'))?.entry)).toBe(JSON.stringify(record.entry));
        expect(await store.toolbox.list()).toEqual([record]);
        expect(await store.toolbox.get('missing')).toBeUndefined();
      });

      it('replaces the record put under the same name, which keeps its place in the list', async () => {
        await store.toolbox.put(toolboxRecord('b_tool', 'draft'));
        await store.toolbox.put(toolboxRecord('a_tool', 'testing'));
        const replacement = toolboxRecord('b_tool', 'failed', '2026-01-02T03:05:00.000Z');

        await store.toolbox.put(replacement);

        expect(await store.toolbox.list()).toEqual([replacement, toolboxRecord('a_tool', 'testing')]);
      });

      it('lists records in the order names were first put', async () => {
        for (const name of ['c_tool', 'a_tool', 'b_tool']) await store.toolbox.put(toolboxRecord(name, 'promoted'));

        expect((await store.toolbox.list()).map((record) => record.name)).toEqual(['c_tool', 'a_tool', 'b_tool']);
      });

      it('deletes by name, saying whether the record existed', async () => {
        await store.toolbox.put(toolboxRecord('a_tool', 'promoted'));
        await store.toolbox.put(toolboxRecord('b_tool', 'failed'));

        expect(await store.toolbox.delete('a_tool')).toBe(true);
        expect(await store.toolbox.delete('a_tool')).toBe(false);
        expect((await store.toolbox.list()).map((record) => record.name)).toEqual(['b_tool']);
      });

      it('clears every record, and takes new ones afterwards', async () => {
        for (const name of ['a_tool', 'b_tool', 'c_tool']) await store.toolbox.put(toolboxRecord(name, 'promoted'));

        await store.toolbox.clear();

        expect(await store.toolbox.list()).toEqual([]);
        await store.toolbox.put(toolboxRecord('b_tool', 'draft'));
        expect(await store.toolbox.list()).toEqual([toolboxRecord('b_tool', 'draft')]);
      });
    });

    describe('stats', () => {
      /** A step of `runId`: a failed one when `error` is given. */
      function step(runId: string, index: number, tool: string, error: string | null = null): NewStep {
        return { runId, index, callId: `call-${index}`, tool, input: { index }, output: error === null ? 'ok' : null, error, durationMs: 1 };
      }

      it('summarizes nothing when no run is stored', async () => {
        expect(await store.stats.summarize()).toEqual({ halts: [], models: [], tools: [] });
        expect(await store.stats.runLogFiles()).toEqual([]);
      });

      it('counts runs by halt reason, in the order of each reason\'s first run, unfinished runs under null', async () => {
        for (const id of ['run-a', 'run-b', 'run-c', 'run-d', 'run-e']) await store.runs.create(newRun(id));
        await store.runs.update('run-a', { status: 'failed', haltReason: 'cap' });
        await store.runs.update('run-b', { status: 'completed', haltReason: 'final_answer' });
        await store.runs.update('run-d', { status: 'failed', haltReason: 'cap' });
        await store.runs.update('run-e', { status: 'failed', haltReason: 'interrupted' });

        expect((await store.stats.summarize()).halts).toEqual([
          { haltReason: 'cap', runs: 2 },
          { haltReason: 'final_answer', runs: 1 },
          { haltReason: null, runs: 1 },
          { haltReason: 'interrupted', runs: 1 },
        ]);
      });

      it('sums model usage per model over stored runs only, unknown prices making the cost unknown, oldest run first', async () => {
        await store.runs.create(newRun('run-old'));
        await store.runs.create(newRun('run-new'));
        // Recorded before the older run's calls: order follows the runs, then the calls within a run.
        await store.modelCalls.record(modelCall({ runId: 'run-new', model: 'anthropic:claude-sonnet-4-6', inputTokens: 7, outputTokens: 1, costUsd: 0.5 }));
        await store.modelCalls.recordAll([
          modelCall({ runId: 'run-old', model: 'openai:gpt-4.1-mini', inputTokens: 100, outputTokens: 10, costUsd: 0.25 }),
          modelCall({ runId: 'run-old', model: 'ollama:llama3.2', inputTokens: 40, outputTokens: 4, costUsd: 0 }),
          modelCall({ runId: 'run-old', model: 'openai:gpt-4.1-mini', inputTokens: 200, outputTokens: 20, costUsd: 0.125 }),
        ]);
        await store.modelCalls.recordAll([
          modelCall({ runId: 'run-new', model: 'openrouter:unpriced', inputTokens: 3, outputTokens: 1, costUsd: null }),
          modelCall({ runId: 'run-new', model: 'openrouter:unpriced', inputTokens: 5, outputTokens: 2, costUsd: 1 }),
          modelCall({ runId: null, model: 'openai:gpt-4.1-mini', inputTokens: 9_999, costUsd: 9 }),
          modelCall({ runId: 'run-never-stored', model: 'openai:gpt-4.1-mini', inputTokens: 9_999, costUsd: 9 }),
        ]);

        expect((await store.stats.summarize()).models).toEqual([
          { model: 'openai:gpt-4.1-mini', llmCalls: 2, inputTokens: 300, outputTokens: 30, costUsd: 0.375 },
          { model: 'ollama:llama3.2', llmCalls: 1, inputTokens: 40, outputTokens: 4, costUsd: 0 },
          { model: 'anthropic:claude-sonnet-4-6', llmCalls: 1, inputTokens: 7, outputTokens: 1, costUsd: 0.5 },
          { model: 'openrouter:unpriced', llmCalls: 2, inputTokens: 8, outputTokens: 3, costUsd: null },
        ]);
        expect((await store.stats.summarize({ runId: 'run-new' })).models.map((usage) => usage.model)).toEqual(['anthropic:claude-sonnet-4-6', 'openrouter:unpriced']);
      });

      it('counts tool calls and failures per tool, oldest run first, then by step', async () => {
        await store.runs.create(newRun('run-old'));
        await store.runs.create(newRun('run-new'));
        await store.steps.recordAll([step('run-new', 0, 'http_request'), step('run-new', 1, 'web_search', 'HTTP 503')]);
        await store.steps.recordAll([step('run-old', 0, 'read_url', 'blocked'), step('run-old', 1, 'web_search'), step('run-old', 2, 'read_url')]);

        expect((await store.stats.summarize()).tools).toEqual([
          { tool: 'read_url', calls: 2, errors: 1 },
          { tool: 'web_search', calls: 2, errors: 1 },
          { tool: 'http_request', calls: 1, errors: 0 },
        ]);
        expect(await store.stats.summarize({ runId: 'run-new' })).toEqual({
          halts: [{ haltReason: null, runs: 1 }],
          models: [],
          tools: [
            { tool: 'http_request', calls: 1, errors: 0 },
            { tool: 'web_search', calls: 1, errors: 1 },
          ],
        });
        expect(await store.stats.summarize({ runId: 'run-unknown' })).toEqual({ halts: [], models: [], tools: [] });
      });

      it('lists the run logs of stored runs, oldest first, leaving out runs without one', async () => {
        await store.runs.create({ ...newRun('run-a'), logFile: '/forge/runs/a.jsonl' });
        await store.runs.create(newRun('run-b'));
        await store.runs.create({ ...newRun('run-c'), logFile: '/forge/runs/c.jsonl' });

        expect(await store.stats.runLogFiles()).toEqual(['/forge/runs/a.jsonl', '/forge/runs/c.jsonl']);
        expect(await store.stats.runLogFiles({ runId: 'run-c' })).toEqual(['/forge/runs/c.jsonl']);
        expect(await store.stats.runLogFiles({ runId: 'run-b' })).toEqual([]);
      });

      it('reads only the events of the asked types, oldest run first and in seq order, across pages', async () => {
        await store.runs.create(newRun('run-old'));
        await store.runs.create(newRun('run-new'));
        const verdict = (runId: string, seq: number, tool: string): ForgeEvent => ({
          ts: '2026-01-02T03:04:08.000Z', run_id: runId, seq, type: 'synthesis-end', tool, status: 'promoted', revisions: 0, llm_calls: 2, tokens: { input: 10, output: 5 }, cost_usd: null, flagged: false, failures: [],
        });
        // The newer run's events are stored first, and more than a page of them match.
        const newer = Array.from({ length: 1_200 }, (_, seq) => (seq % 2 === 0 ? textEvent('run-new', seq, `text ${seq}`) : verdict('run-new', seq, `tool_${seq}`)));
        await store.events.appendAll(newer);
        await store.events.appendAll([runStartEvent('run-old', 0), verdict('run-old', 1, 'first'), textEvent('run-old', 2, 'between'), verdict('run-old', 3, 'second')]);

        const read: ForgeEvent[] = [];
        for await (const event of store.stats.eventsOfTypes(['synthesis-end'])) read.push(event);

        expect(read.map((event) => [event.run_id, event.seq])).toEqual([
          ['run-old', 1],
          ['run-old', 3],
          ...newer.filter((event) => event.type === 'synthesis-end').map((event) => [event.run_id, event.seq]),
        ]);
        expect(read[0]).toEqual(verdict('run-old', 1, 'first'));
        const scoped: ForgeEvent[] = [];
        for await (const event of store.stats.eventsOfTypes(['run-start', 'synthesis-end'], { runId: 'run-old' })) scoped.push(event);
        expect(scoped.map((event) => event.type)).toEqual(['run-start', 'synthesis-end', 'synthesis-end']);
        const none: ForgeEvent[] = [];
        for await (const event of store.stats.eventsOfTypes([])) none.push(event);
        expect(none).toEqual([]);
      });
    });

    // Databases that vanish on close (memory) have nothing to reopen; durable ones must pass this.
    if (options.durable) describe('durability', () => {
      it('keeps everything written after the store is closed and the database reopened', async () => {
        await store.runs.create(newRun('run-1'));
        await store.runs.update('run-1', { status: 'completed', haltReason: 'final_answer', answer: 'forty-two', costUsd: null });
        await store.events.append(runStartEvent('run-1', 0));
        await store.events.append(toolCallStartEvent('run-1', 1, awkwardJson));
        await store.steps.record({ runId: 'run-1', index: 0, callId: 'call-0', tool: 'web_search', input: awkwardJson, output: 'ok', error: null, durationMs: 4 });
        await store.conversations.create({ id: 'conversation-1', title: 'kept' });
        await store.conversations.appendMessages('conversation-1', [textMessage('user', 'question'), textMessage('assistant', 'answer')]);
        await store.modelCalls.record(modelCall({ runId: 'run-1', costUsd: null }));
        const before = await snapshot(store);
        await store.close();

        const reopened = await definedValue(subject.reopen)();

        const after = await snapshot(reopened);
        expect(after).toEqual(before);
        expect(after.runs).toHaveLength(1);
        expect(after.events).toHaveLength(2);
        expect(after.steps).toHaveLength(1);
        expect(after.messages).toHaveLength(2);
        expect(after.modelCalls).toHaveLength(1);
        expect(after.runs[0]?.costUsd).toBeNull();
      });
    });
  });
}

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** JSON that breaks naive storage: unicode beyond the BMP, a lone surrogate, escapes, key order, deep nesting. */
const awkwardJson = {
  zeta: 'first key, out of alphabetical order',
  text: 'naïve café — 日本語 — עברית — 🧪🚀 — "quoted" \\ back\nslash\ttab \u0000 nul',
  lone: '\ud800',
  '': 'empty key',
  numbers: [0, -2.5, 1e-7, 12345678901234, Number.MAX_SAFE_INTEGER],
  flags: [true, false, null],
  nested: { deeper: { deepest: [[], {}, [{ a: [{ b: 'c' }] }]] } },
};

function newRun(id: string): NewRun {
  return { id, task: `task of ${id}`, model: 'openai:gpt-4.1-mini', conversationId: null };
}

function runStartEvent(runId: string, seq: number): ForgeEvent {
  return {
    ts: '2026-01-02T03:04:05.678Z',
    run_id: runId,
    seq,
    type: 'run-start',
    task: 'résumé the 日本語 page',
    model: 'openai:gpt-4.1-mini',
    max_iterations: 10,
    conversation_id: null,
    tools: ['web_search', 'fetch_page'],
  };
}

function toolCallStartEvent(runId: string, seq: number, input: unknown): ForgeEvent {
  return { ts: '2026-01-02T03:04:06.000Z', run_id: runId, seq, type: 'tool-call-start', call_id: `call-${seq}`, tool: 'web_search', input, iteration: 1 };
}

function textEvent(runId: string, seq: number, text: string): ForgeEvent {
  return { ts: '2026-01-02T03:04:07.000Z', run_id: runId, seq, type: 'assistant-text', iteration: 1, text };
}

function textMessage(role: NewMessage['role'], text: string): NewMessage {
  return { runId: null, role, content: text, toolCallIds: [], model: null, inputTokens: null, outputTokens: null };
}

function modelCall(overrides: Partial<ModelCallRecord>): ModelCallRecord {
  return {
    runId: 'run-1',
    model: 'openai:gpt-4.1-mini',
    purpose: 'loop',
    inputTokens: 1500,
    outputTokens: 220,
    costUsd: 0.00096,
    latencyMs: 640,
    inputHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ts: '2026-01-02T03:04:05.000Z',
    ...overrides,
  };
}

/** Everything the durability test wrote, read back through the interface. */
async function snapshot(store: Store) {
  return {
    runs: await store.runs.list(),
    events: await store.events.list('run-1'),
    steps: await store.steps.list('run-1'),
    conversations: await store.conversations.list(),
    messages: await store.conversations.listMessages('conversation-1'),
    modelCalls: await store.modelCalls.list('run-1'),
  };
}

async function rejectionOf(operation: Promise<unknown>): Promise<unknown> {
  try {
    await operation;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the operation to fail, but it succeeded.');
}

function definedValue<Value>(value: Value | undefined): Value {
  if (value === undefined) throw new Error('Expected a value.');
  return value;
}
