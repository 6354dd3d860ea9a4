import { createHash } from 'node:crypto';

/** What a model call's input hash covers: the system prompt, the tool names, and the messages in order. */
export interface ModelInput {
  readonly system: string;
  readonly tools: readonly string[];
  /** Treated as immutable values: a hasher recognizes a message it has already hashed by identity. */
  readonly messages: readonly unknown[];
}

const DIGEST_LENGTH = 32;

/**
 * Hashes model inputs as a chain, so a loop that asks again with a longer history hashes only the new
 * messages: h₀ = sha256({system, tools}), hₙ = sha256(hₙ₋₁ ‖ JSON of message n). The hash (hex, first
 * 16 bytes of hₙ) depends only on the input, so identical calls can be found in the log whichever
 * hasher computed it. A loop keeps one per run; a different system prompt or tool list starts the
 * chain again, and a message that is not the very object hashed at its position last time re-hashes
 * from there on.
 */
export class ModelInputHasher {
  private system: string | undefined;
  private tools: readonly string[] = [];
  /** The prefix digest, then one digest per message hashed, in order. */
  private readonly chain: Buffer[] = [];
  private readonly hashedMessages: unknown[] = [];
  private bytes = 0;

  /** Bytes fed to SHA-256 by this hasher so far (what the chaining saves is counted here). */
  get bytesHashed(): number {
    return this.bytes;
  }

  hash(input: ModelInput): string {
    if (input.system !== this.system || !sameNames(input.tools, this.tools)) this.restart(input.system, input.tools);
    let kept = 0;
    while (kept < this.hashedMessages.length && kept < input.messages.length && this.hashedMessages[kept] === input.messages[kept]) kept += 1;
    this.hashedMessages.length = kept;
    this.chain.length = kept + 1;
    for (const message of input.messages.slice(kept)) {
      const text = JSON.stringify(message);
      this.bytes += DIGEST_LENGTH + Buffer.byteLength(text);
      this.chain.push(createHash('sha256').update(this.chain.at(-1)!).update(text).digest());
      this.hashedMessages.push(message);
    }
    return this.chain.at(-1)!.toString('hex').slice(0, 32);
  }

  private restart(system: string, tools: readonly string[]): void {
    this.system = system;
    this.tools = [...tools];
    const text = JSON.stringify({ system, tools });
    this.bytes += Buffer.byteLength(text);
    this.chain.length = 0;
    this.chain.push(createHash('sha256').update(text).digest());
    this.hashedMessages.length = 0;
  }
}

function sameNames(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((name, index) => name === right[index]);
}

/** The input hash of one model call, from scratch (what a `ModelInputHasher` gives for the same input). */
export function hashModelInput(input: ModelInput): string {
  return new ModelInputHasher().hash(input);
}
