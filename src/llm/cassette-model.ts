import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { z } from 'zod';
import { ForgeError, ModelNotConfiguredError } from '../core/index.js';
import { withoutBoundarySuffixes } from '../tools/index.js';

/** One message of a request as a cassette keeps it: provider-neutral, system prompt left out. */
const cassetteMessageSchema = z.object({
  role: z.enum(['user', 'assistant', 'tool']),
  text: z.string(),
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), input: z.unknown() })),
  tool_results: z.array(z.object({ id: z.string(), name: z.string(), output: z.string() })),
});
type CassetteMessage = z.infer<typeof cassetteMessageSchema>;

const cassetteTurnSchema = z.object({
  request: z.object({ messages: z.array(cassetteMessageSchema), tools: z.array(z.string()) }),
  response: z.object({
    text: z.string(),
    tool_calls: z.array(z.object({ id: z.string(), name: z.string(), input: z.string() })),
    finish_reason: z.enum(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']),
    usage: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }),
  }),
});
type CassetteTurn = z.infer<typeof cassetteTurnSchema>;

/** A recorded model session: every request (as the model was asked) and the answer it gave, in order. */
export const cassetteSchema = z.object({
  format: z.literal('forge-cassette'),
  version: z.literal(1),
  /** The model the session was recorded from. */
  model: z.string(),
  turns: z.array(cassetteTurnSchema),
});
export type Cassette = z.infer<typeof cassetteSchema>;

/**
 * Values that differ between recording and playback (a port, a temporary folder): they are written to
 * the cassette as `{{name}}` and put back on playback, so a session recorded against one port plays
 * back against another.
 */
export type CassetteSubstitutions = Readonly<Record<string, string>>;

/** What the session asked does not match what was recorded: the playback stops instead of answering wrongly. */
export class CassetteMismatchError extends ForgeError {
  readonly turn: number;
  constructor(turn: number, message: string) {
    super({
      name: 'CassetteMismatchError',
      message: `Cassette turn ${turn}: ${message}`,
      hint: 'The agent asked something the recorded session never saw (its prompt, tools or tool results changed). Record the cassette again with FORGE_CASSETTE_RECORD=<provider:model>.',
    });
    this.turn = turn;
  }
}

function substitute(text: string, substitutions: CassetteSubstitutions, direction: 'record' | 'play'): string {
  return Object.entries(substitutions).reduce(
    (current, [name, value]) => (value === '' ? current : direction === 'record' ? current.split(value).join(`{{${name}}}`) : current.split(`{{${name}}}`).join(value)),
    text,
  );
}

function outputText(output: unknown): string {
  if (typeof output === 'object' && output !== null && 'value' in output) {
    const value = (output as { value: unknown }).value;
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
  return JSON.stringify(output);
}

/** The request as the cassette compares it: messages without the system prompt (tool results without boundary suffixes), and the tool names. */
function normalizeRequest(options: LanguageModelV3CallOptions, substitutions: CassetteSubstitutions): CassetteTurn['request'] {
  const sub = (text: string) => substitute(text, substitutions, 'record');
  const messages: CassetteMessage[] = [];
  for (const message of options.prompt as LanguageModelV3Prompt) {
    if (message.role === 'system') continue;
    const parts = message.content as unknown as readonly { type: string; [key: string]: unknown }[];
    messages.push({
      role: message.role,
      text: sub(parts.filter((part) => part.type === 'text').map((part) => String(part['text'])).join('')),
      tool_calls: parts
        .filter((part) => part.type === 'tool-call')
        .map((part) => ({ id: String(part['toolCallId']), name: String(part['toolName']), input: JSON.parse(sub(typeof part['input'] === 'string' ? part['input'] : JSON.stringify(part['input'] ?? {}))) as unknown })),
      tool_results: parts
        .filter((part) => part.type === 'tool-result')
        // A boundary's random suffix is drawn anew in every session; the content inside is what must match.
        .map((part) => ({ id: String(part['toolCallId']), name: String(part['toolName']), output: sub(withoutBoundarySuffixes(outputText(part['output']))) })),
    });
  }
  return { messages, tools: (options.tools ?? []).map((tool) => tool.name).sort() };
}

function firstDifference(expected: CassetteTurn['request'], actual: CassetteTurn['request']): string | undefined {
  if (JSON.stringify(expected.tools) !== JSON.stringify(actual.tools)) return `the tools offered differ (recorded ${expected.tools.join(', ')}; now ${actual.tools.join(', ')})`;
  const length = Math.max(expected.messages.length, actual.messages.length);
  for (let index = 0; index < length; index += 1) {
    const recorded = JSON.stringify(expected.messages[index] ?? null);
    const asked = JSON.stringify(actual.messages[index] ?? null);
    if (recorded !== asked) {
      let at = 0;
      while (at < recorded.length && recorded[at] === asked[at]) at += 1;
      const excerpt = (text: string) => text.slice(Math.max(0, at - 40), at + 80);
      return `message ${index} differs: recorded …${excerpt(recorded)}… but was asked …${excerpt(asked)}…`;
    }
  }
  return undefined;
}

function streamOf(response: CassetteTurn['response']): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (response.text !== '') parts.push({ type: 'text-start', id: 'text' }, { type: 'text-delta', id: 'text', delta: response.text }, { type: 'text-end', id: 'text' });
  for (const call of response.tool_calls) parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
  parts.push({
    type: 'finish',
    finishReason: { unified: response.finish_reason, raw: undefined },
    usage: {
      inputTokens: { total: response.usage.input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: response.usage.output, text: undefined, reasoning: undefined },
    },
  });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

function contentOf(response: CassetteTurn['response']) {
  return [
    ...(response.text === '' ? [] : [{ type: 'text' as const, text: response.text }]),
    ...response.tool_calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.input })),
  ];
}

function played(response: CassetteTurn['response'], substitutions: CassetteSubstitutions): CassetteTurn['response'] {
  const sub = (text: string) => substitute(text, substitutions, 'play');
  return { ...response, text: sub(response.text), tool_calls: response.tool_calls.map((call) => ({ ...call, input: sub(call.input) })) };
}

/**
 * A model that plays a recorded session back turn by turn. Turn N answers the N-th call, and only if
 * the call asks exactly what was recorded (same conversation so far and tool results, same tools);
 * otherwise it throws `CassetteMismatchError` saying where the request differs. Token usage is the
 * recorded usage. It never reaches a network.
 */
export function createCassettePlayer(cassette: Cassette, substitutions: CassetteSubstitutions = {}): LanguageModelV3 {
  let next = 0;
  const answer = (options: LanguageModelV3CallOptions) => {
    const index = next;
    next += 1;
    const turn = cassette.turns[index];
    if (turn === undefined) throw new CassetteMismatchError(index, `the session asked for a turn the cassette does not have (it recorded ${cassette.turns.length}).`);
    const difference = firstDifference(turn.request, normalizeRequest(options, substitutions));
    if (difference !== undefined) throw new CassetteMismatchError(index, difference);
    return played(turn.response, substitutions);
  };
  return {
    specificationVersion: 'v3',
    provider: 'cassette',
    modelId: cassette.model,
    supportedUrls: {},
    async doGenerate(options) {
      const response = answer(options);
      return {
        content: contentOf(response),
        finishReason: { unified: response.finish_reason, raw: undefined },
        usage: {
          inputTokens: { total: response.usage.input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: response.usage.output, text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
    async doStream(options) {
      return { stream: streamOf(answer(options)) };
    },
  };
}

/**
 * Wraps a real model and records the session into `file` as it goes (the file is rewritten after every
 * turn, so a session cut short still leaves a playable prefix).
 */
export function createCassetteRecorder(inner: LanguageModelV3, innerSlug: string, file: string, substitutions: CassetteSubstitutions = {}): LanguageModelV3 {
  const cassette: Cassette = { format: 'forge-cassette', version: 1, model: innerSlug, turns: [] };
  const save = (request: CassetteTurn['request'], response: CassetteTurn['response']) => {
    const sub = (text: string) => substitute(text, substitutions, 'record');
    cassette.turns.push({ request, response: { ...response, text: sub(response.text), tool_calls: response.tool_calls.map((call) => ({ ...call, input: sub(call.input) })) } });
    writeFileSync(file, `${JSON.stringify(cassette, null, 2)}\n`);
  };
  return {
    specificationVersion: 'v3',
    provider: 'cassette',
    modelId: innerSlug,
    supportedUrls: {},
    async doGenerate(options) {
      const result = await inner.doGenerate(options);
      let text = '';
      const toolCalls: CassetteTurn['response']['tool_calls'] = [];
      for (const part of result.content) {
        if (part.type === 'text') text += part.text;
        if (part.type === 'tool-call') toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
      }
      save(normalizeRequest(options, substitutions), {
        text,
        tool_calls: toolCalls,
        finish_reason: result.finishReason.unified,
        usage: { input: result.usage.inputTokens.total ?? 0, output: result.usage.outputTokens.total ?? 0 },
      });
      return result;
    },
    async doStream(options) {
      const result = await inner.doStream(options);
      const request = normalizeRequest(options, substitutions);
      let text = '';
      const toolCalls: CassetteTurn['response']['tool_calls'] = [];
      const recorder = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') text += part.delta;
          if (part.type === 'tool-call') toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
          if (part.type === 'finish') {
            save(request, { text, tool_calls: toolCalls, finish_reason: part.finishReason.unified, usage: { input: part.usage.inputTokens.total ?? 0, output: part.usage.outputTokens.total ?? 0 } });
          }
          controller.enqueue(part);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(recorder) };
    },
  };
}

/** Reads and validates a cassette file. */
export function readCassette(file: string): Cassette {
  if (!existsSync(file)) {
    throw new ModelNotConfiguredError(
      `The cassette ${file} does not exist.`,
      `Record it first: FORGE_CASSETTE_RECORD=<provider:model> forge run --model cassette:${file} "<task>".`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ForgeError({ name: 'CassetteFormatError', message: `${file} is not JSON (${error instanceof Error ? error.message : String(error)}).` });
  }
  const parsed = cassetteSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ForgeError({ name: 'CassetteFormatError', message: `${file} is not a Forge cassette (${issue.path.join('.') || 'document'}: ${issue.message}).` });
  }
  return parsed.data;
}
