import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type NewMessage, type Store } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import type { StoreContractContext } from './store-under-test.js';
import { awkwardJson, isoUtc, newRun, rejectionOf, textMessage } from './contract-fixtures.js';

/** `Store.conversations`: conversations and their messages, appended atomically and in order. */
export function describeConversationsContract(context: StoreContractContext): void {
  describe('conversations', () => {
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

    it('creates conversations with a given or a generated id, and gets them back', async () => {
      const named = await store.conversations.create({ id: 'conversation-1', title: 'Trip to Kyoto 京都' });
      const generated = await store.conversations.create();

      expect(named).toEqual({ id: 'conversation-1', title: 'Trip to Kyoto 京都', userId: null, createdAt: expect.stringMatching(isoUtc) });
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

    it('keeps each conversation\'s account, and lists one account\'s (with or without those stored without one)', async () => {
      await store.conversations.create({ id: 'c-none' });
      await store.conversations.create({ id: 'c-ada', userId: 'ada' });
      await store.conversations.create({ id: 'c-bob', userId: 'bob' });

      expect((await store.conversations.get('c-ada'))?.userId).toBe('ada');
      expect((await store.conversations.list({ ownedBy: { userId: 'ada', includeUnowned: false } })).map((c) => c.id)).toEqual(['c-ada']);
      expect((await store.conversations.list({ ownedBy: { userId: 'ada', includeUnowned: true } })).map((c) => c.id)).toEqual(['c-ada', 'c-none']);
      expect((await store.conversations.list({ ownedBy: { userId: 'carol', includeUnowned: false } })).map((c) => c.id)).toEqual([]);
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
    let store: Store;
    beforeEach(() => {
      store = context.subject().store;
    });

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
}
