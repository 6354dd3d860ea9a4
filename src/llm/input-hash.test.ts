import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ModelInputHasher, hashModelInput, type ModelInput } from './input-hash.js';

/** The documented chain, computed here without the hasher: h₀ = sha256({system, tools}), hₙ = sha256(hₙ₋₁ ‖ JSON of message n). */
function chainHash(input: ModelInput): string {
  let digest = createHash('sha256').update(JSON.stringify({ system: input.system, tools: input.tools })).digest();
  for (const message of input.messages) digest = createHash('sha256').update(digest).update(JSON.stringify(message)).digest();
  return digest.toString('hex').slice(0, 32);
}

function userMessage(text: string) {
  return { role: 'user', content: [{ type: 'text', text }] };
}

function toolMessage(callId: string, value: string) {
  return { role: 'tool', content: [{ type: 'tool-result', toolCallId: callId, toolName: 'lookup', output: { type: 'text', value } }] };
}

const system = 'You are a careful agent.';
const tools = ['lookup', 'read_url'];

describe('ModelInputHasher hashes a growing history incrementally', () => {
  it('gives the from-scratch hash of the same input at every call of a loop', () => {
    const hasher = new ModelInputHasher();
    const messages: unknown[] = [userMessage('Find the latest release of lumen.')];
    for (let turn = 1; turn <= 6; turn += 1) {
      const input = { system, tools, messages: [...messages] };
      const hash = hasher.hash(input);
      expect(hash).toBe(chainHash(input));
      expect(hash).toBe(hashModelInput(input));
      expect(hash).toMatch(/^[0-9a-f]{32}$/);
      messages.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call-${turn}`, toolName: 'lookup', input: { key: turn } }] }, toolMessage(`call-${turn}`, `result ${turn}`));
    }
  });

  it('hashes only the messages added since the last call', () => {
    const hasher = new ModelInputHasher();
    const messages: unknown[] = [userMessage('start')];
    hasher.hash({ system, tools, messages });
    for (let turn = 1; turn <= 20; turn += 1) {
      const added = toolMessage(`call-${turn}`, 'x'.repeat(1000));
      messages.push(added);
      const before = hasher.bytesHashed;
      hasher.hash({ system, tools, messages });
      // One previous digest and the new message: the same cost at turn 20 as at turn 1.
      expect(hasher.bytesHashed - before).toBe(32 + Buffer.byteLength(JSON.stringify(added)));
    }
    // 21 calls cost what hashing the final history once does; from scratch each would have fed every earlier message again.
    const fromScratch = new ModelInputHasher();
    fromScratch.hash({ system, tools, messages });
    expect(fromScratch.bytesHashed).toBe(hasher.bytesHashed);
  });

  it('asking the same input again hashes nothing', () => {
    const hasher = new ModelInputHasher();
    const input = { system, tools, messages: [userMessage('a'), toolMessage('c', 'b')] };
    const first = hasher.hash(input);
    const bytes = hasher.bytesHashed;
    expect(hasher.hash(input)).toBe(first);
    expect(hasher.bytesHashed).toBe(bytes);
  });

  it('differs when any earlier message, the system prompt or the tool list changes, and re-hashes from the change', () => {
    const hasher = new ModelInputHasher();
    const messages = [userMessage('one'), toolMessage('c1', 'two'), userMessage('three'), toolMessage('c2', 'four')];
    const original = hasher.hash({ system, tools, messages });
    const seen = new Set([original]);
    for (let index = 0; index < messages.length; index += 1) {
      const changed = messages.map((message, at) => (at === index ? toolMessage('c9', `changed ${index}`) : message));
      const before = hasher.bytesHashed;
      const hash = hasher.hash({ system, tools, messages: changed });
      expect(hash).toBe(chainHash({ system, tools, messages: changed }));
      expect(seen.has(hash)).toBe(false);
      seen.add(hash);
      // Messages before the change are taken from the chain; the changed one and those after it are hashed again.
      const rehashed = changed.slice(index).reduce((total, message) => total + 32 + Buffer.byteLength(JSON.stringify(message)), 0);
      expect(hasher.bytesHashed - before).toBe(rehashed);
      expect(hasher.hash({ system, tools, messages })).toBe(original);
    }
    for (const input of [
      { system: `${system} `, tools, messages },
      { system, tools: ['lookup'], messages },
      { system, tools: ['read_url', 'lookup'], messages },
      { system, tools, messages: messages.slice(0, 3) },
    ]) {
      const hash = hasher.hash(input);
      expect(hash).toBe(chainHash(input));
      expect(seen.has(hash)).toBe(false);
      seen.add(hash);
    }
  });
});
