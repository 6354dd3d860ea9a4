import { setTimeout as delay } from 'node:timers/promises';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../src/core/index.js';

/** Model calls a run of the timer model makes: one per no-op tool, then the final answer. */
export const TIMER_MODEL_CALLS = 3;

const usage = {
  inputTokens: { total: 40, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 8, text: undefined, reasoning: undefined },
};

/** The two tools the timer model calls: they do nothing and answer at once. */
export function noopTools(): AnyTool[] {
  return ['noop_a', 'noop_b'].map((name) =>
    defineTool({ name, description: 'does nothing', inputSchema: z.object({ value: z.number() }), risk: 'low', sideEffect: 'read', execute: async ({ value }) => ({ value }) }),
  );
}

/**
 * A fake model in the same process that answers each call (streaming, as the agent loop asks) after
 * `delayMs(prompt)` on a timer, so the process is free meanwhile: a call to `noop_a`, then `noop_b`,
 * then the final answer `done`.
 */
export function timerModel(delayMs: (prompt: LanguageModelV3Prompt) => number): LanguageModelV3 {
  let counter = 0;
  return {
    specificationVersion: 'v3',
    provider: 'timer',
    modelId: 'timer',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the agent loop streams');
    },
    async doStream(options: LanguageModelV3CallOptions) {
      await delay(delayMs(options.prompt), undefined, { signal: options.abortSignal });
      const results = options.prompt.filter((message) => message.role === 'tool').length;
      counter += 1;
      const parts: LanguageModelV3StreamPart[] =
        results >= TIMER_MODEL_CALLS - 1
          ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage }]
          : [{ type: 'tool-call', toolCallId: `c${counter}`, toolName: results === 0 ? 'noop_a' : 'noop_b', input: '{"value":1}' }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage }];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
