import type { LoopMessage } from './model-turn.js';
import { describe, expect, it } from 'vitest';
import { boundHistory } from './conversation-memory.js';

const turn = (index: number): LoopMessage[] => [
  { role: 'user', content: [{ type: 'text', text: `question ${index}` }] },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${index}`, toolName: 'lookup', input: {} }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${index}`, toolName: 'lookup', output: { type: 'text', value: 'x'.repeat(400) } }] },
  { role: 'assistant', content: [{ type: 'text', text: `answer ${index}` }] },
];

describe('bounded conversation memory', () => {
  const history = [0, 1, 2, 3, 4].flatMap(turn);

  it('keeps the newest messages within the message bound, starting at a user message', () => {
    const kept = boundHistory(history, { maxMessages: 6, maxTokens: 100_000 });
    expect(kept[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'question 4' }] });
    expect(kept).toHaveLength(4);
  });

  it('never keeps a tool result without the call that asked for it', () => {
    for (let maxMessages = 1; maxMessages <= history.length; maxMessages += 1) {
      const kept = boundHistory(history, { maxMessages, maxTokens: 100_000 });
      if (kept.length > 0) expect(kept[0]!.role).toBe('user');
    }
  });

  it('keeps within the token budget', () => {
    const kept = boundHistory(history, { maxMessages: 100, maxTokens: 250 });
    expect(kept[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'question 4' }] });
    expect(kept).toHaveLength(4);
    expect(boundHistory(history, { maxMessages: 100, maxTokens: 50 })).toEqual([]);
    expect(boundHistory(history, { maxMessages: 100, maxTokens: 100_000 })).toHaveLength(20);
  });
});
