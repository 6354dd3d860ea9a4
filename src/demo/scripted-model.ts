import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider';

/** One reply of a scripted model: text, tool calls, or both. */
export interface ScriptedReply {
  readonly text?: string;
  readonly toolCalls?: ReadonlyArray<{ readonly name: string; readonly input: unknown }>;
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A model whose replies come from a function of the prompt instead of a neural network. It speaks
 * the AI SDK's provider spec (streaming included), so everything above it — loop, dispatch, events,
 * cost meter — runs exactly as with a hosted model. Token counts are estimated at 4 characters per
 * token; it has no price.
 */
export function createScriptedModel(modelId: string, reply: (prompt: LanguageModelV3Prompt) => ScriptedReply): LanguageModelV3 {
  let callCount = 0;
  const answer = (options: LanguageModelV3CallOptions) => {
    const scripted = reply(options.prompt);
    callCount += 1;
    const toolCalls = (scripted.toolCalls ?? []).map((call, index) => ({
      type: 'tool-call' as const,
      toolCallId: `call_${callCount}_${index}`,
      toolName: call.name,
      input: JSON.stringify(call.input),
    }));
    const text = scripted.text ?? '';
    const usage = {
      inputTokens: { total: estimateTokens(JSON.stringify(options.prompt)), noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: estimateTokens(text + toolCalls.map((call) => call.input).join('')), text: undefined, reasoning: undefined },
    };
    const finishReason = { unified: toolCalls.length > 0 ? ('tool-calls' as const) : ('stop' as const), raw: undefined };
    return { text, toolCalls, usage, finishReason };
  };
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const { text, toolCalls, usage, finishReason } = answer(options);
      return { content: [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...toolCalls], finishReason, usage, warnings: [] };
    },
    async doStream(options) {
      const { text, toolCalls, usage, finishReason } = answer(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (text !== '') {
        parts.push({ type: 'text-start', id: 'text' });
        for (const word of text.match(/\S+\s*/g) ?? []) parts.push({ type: 'text-delta', id: 'text', delta: word });
        parts.push({ type: 'text-end', id: 'text' });
      }
      parts.push(...toolCalls, { type: 'finish', finishReason, usage });
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
