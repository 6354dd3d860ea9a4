import { LLMock } from '@copilotkit/aimock';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModel } from '../llm/index.js';
import { providerToolsFrom, streamModelTurn } from './model-turn.js';

const tools = providerToolsFrom([{ name: 'lookup', description: 'Looks up a fact.', inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } }]);

/**
 * Sits between the provider and aimock and keeps each request body exactly as the provider sent it
 * (aimock's journal holds a normalized form, which drops vendor fields such as Anthropic's tool_choice).
 */
async function startRecordingProxy(target: string): Promise<{ url: string; bodies: Record<string, unknown>[]; close: () => Promise<void> }> {
  const bodies: Record<string, unknown>[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host' && entry[0] !== 'content-length'));
      void fetch(`${target}${request.url ?? '/'}`, { method: request.method ?? 'POST', headers, body }).then((upstream) => {
        response.writeHead(upstream.status, Object.fromEntries(upstream.headers));
        if (upstream.body === null) response.end();
        else Readable.fromWeb(upstream.body as WebReadableStream).pipe(response);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('streamModelTurn asks every provider for a single tool call when told to', () => {
  let mock: LLMock;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    mock = new LLMock({ port: 0, host: '127.0.0.1' });
    await mock.start();
    proxy = await startRecordingProxy(mock.url);
    mock.on({ userMessage: 'one call please' }, { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { key: 'a' } }], usage: { prompt_tokens: 10, completion_tokens: 5 } });
    env = {
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: `${proxy.url}/v1`,
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: proxy.url,
      OPENROUTER_API_KEY: 'test',
      OPENROUTER_BASE_URL: `${proxy.url}/v1`,
      OLLAMA_BASE_URL: `${proxy.url}/v1`,
    };
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.stop();
  });

  async function requestBody(slug: string, singleToolCall: boolean): Promise<Record<string, unknown>> {
    proxy.bodies.length = 0;
    const turn = await streamModelTurn({
      model: resolveModel(slug, env),
      system: 'You look things up.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'one call please' }] }],
      tools,
      signal: AbortSignal.timeout(10_000),
      maxRetries: 0,
      toolChoice: { type: 'required' },
      ...(singleToolCall ? { singleToolCall: true as const } : {}),
    });
    expect(turn.toolCalls.map((call) => call.name)).toEqual(['lookup']);
    expect(proxy.bodies).toHaveLength(1);
    return proxy.bodies[0]!;
  }

  it.each(['openai:gpt-4.1-mini', 'openrouter:openai/gpt-4.1-mini', 'ollama:llama3.2', 'openai-compatible:qwen@URL'])('%s: parallel_tool_calls false', async (slug) => {
    const resolved = slug.replace('URL', `${proxy.url}/v1`);
    expect(await requestBody(resolved, true)).toMatchObject({ parallel_tool_calls: false, tool_choice: 'required' });
    expect(await requestBody(resolved, false)).not.toHaveProperty('parallel_tool_calls');
  });

  it('anthropic: disable_parallel_tool_use in tool_choice', async () => {
    expect(await requestBody('anthropic:claude-sonnet-4-6', true)).toMatchObject({ tool_choice: { type: 'any', disable_parallel_tool_use: true } });
    expect(JSON.stringify(await requestBody('anthropic:claude-sonnet-4-6', false))).not.toContain('disable_parallel_tool_use');
  });
});
