import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import { defineTool } from '../src/core/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';
/** What the chatty tool logs: 400 lines of 64 KiB, about 26 MB of events, far more than socket buffers hold. */
const LOG_LINES = 400;
const LINE = 'x'.repeat(64 * 1024);

/** An open event stream: the response once its headers came, and a way to hang up. */
interface OpenStream {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Promise<string>;
  close(): void;
}

/** GETs `url` with `token` and resolves once the answer's head is in; an event stream keeps flowing into `body`. */
function openStream(url: string, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request: ClientRequest = httpRequest(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (response) => {
      const chunks: Buffer[] = [];
      const body = new Promise<string>((done) => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
        response.on('error', () => done(Buffer.concat(chunks).toString('utf8')));
        response.on('close', () => done(Buffer.concat(chunks).toString('utf8')));
      });
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body, close: () => request.destroy() });
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * `forge serve`'s run event streams under a flood (issue 26, "also attack"): a cap of open streams per
 * account and in all (429 with Retry-After past either), and a client that never reads is dropped
 * instead of holding its slot and the server's memory. Real sockets on 127.0.0.1.
 */
describe('event stream flood and slow readers', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let home: string;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let origin: string;
  const releases: (() => void)[] = [];
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  const tokens: Record<string, string> = {};
  const heldRuns: Record<string, string> = {};
  let chattyRun: string;

  beforeAll(async () => {
    process.on('warning', onWarning);
    await mock.start();
    mock.on({ userMessage: 'hold on', hasToolResult: false }, { toolCalls: [{ id: 'hold_1', name: 'hold', arguments: {} }] });
    mock.on({ toolCallId: 'hold_1' }, { content: 'Held.' });
    mock.on({ userMessage: 'talk a lot', hasToolResult: false }, { toolCalls: [{ id: 'chatty_1', name: 'chatty', arguments: {} }] });
    mock.on({ toolCallId: 'chatty_1' }, { content: 'Said it all.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-event-streams-'));
    runtime = await openRuntime(
      {
        FORGE_HOME: home,
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: `${mock.url}/v1`,
        FORGE_API_RATE_LIMIT: '0',
        FORGE_SSE_MAX_STREAMS_PER_ACCOUNT: '3',
        FORGE_SSE_MAX_STREAMS: '5',
        FORGE_SSE_IDLE_TIMEOUT: '1',
      },
      home,
      { mcp: { startupWaitMs: 0 } },
    );
    runtime.registry.register(
      defineTool({
        name: 'hold',
        description: 'Waits until the test lets go.',
        inputSchema: z.object({}),
        risk: 'low',
        sideEffect: 'read',
        execute: () => new Promise((resolve) => releases.push(() => resolve('let go'))),
      }),
    );
    runtime.registry.register(
      defineTool({
        name: 'chatty',
        description: 'Logs a great deal.',
        inputSchema: z.object({}),
        risk: 'low',
        sideEffect: 'read',
        execute: async (_input, context) => {
          for (let index = 0; index < LOG_LINES; index += 1) context.log?.([`${index} ${LINE}`]);
          return 'logged';
        },
      }),
    );
    for (const email of ['ada@example.com', 'bob@example.com', 'cy@example.com']) await runtime.accounts.addUser({ email, password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts', webRoot: null });
    origin = server.listener.origin;
    for (const name of ['ada', 'bob', 'cy']) {
      const client = new ForgeClient({ baseUrl: origin });
      tokens[name] = (await client.login(`${name}@example.com`, PASSWORD)).access_token;
      heldRuns[name] = (await client.startRun({ task: 'hold on', model: MODEL })).run_id;
    }
    const ada = new ForgeClient({ baseUrl: origin, token: tokens['ada']! });
    chattyRun = (await ada.startRun({ task: 'talk a lot', model: MODEL })).run_id;
    // Recorded whole before any test reads it: its stream then comes from the store.
    for await (const _event of runtime.runs.eventsAfter(chattyRun, Number.MAX_SAFE_INTEGER - 1)) {
      // Nothing after that seq: the loop ends when the run's feed closes.
    }
  });
  afterAll(async () => {
    for (const release of releases) release();
    await server?.close();
    await runtime?.close();
    await mock.stop();
    process.off('warning', onWarning);
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  const eventsUrl = (runId: string) => `${origin}/api/v1/runs/${runId}/events`;

  it('caps the streams one account holds (429, Retry-After, a message naming the setting) while others still get theirs, and in all', async () => {
    const streams: OpenStream[] = [];
    try {
      for (let index = 0; index < 3; index += 1) streams.push(await openStream(eventsUrl(heldRuns['ada']!), tokens['ada']!));
      expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);

      const refused = await openStream(eventsUrl(heldRuns['ada']!), tokens['ada']!);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const error = (JSON.parse(await refused.body) as { error: { name: string; message: string; hint: string } }).error;
      expect(error.name).toBe('TooManyEventStreams');
      expect(error.message).toContain('3 event streams open');
      expect(error.hint).toContain('FORGE_SSE_MAX_STREAMS_PER_ACCOUNT');

      // Another account is not starved by the first one's flood.
      streams.push(await openStream(eventsUrl(heldRuns['bob']!), tokens['bob']!), await openStream(eventsUrl(heldRuns['bob']!), tokens['bob']!));
      expect(streams.slice(3).map((stream) => stream.status)).toEqual([200, 200]);
      expect(server.eventStreams.openCount()).toBe(5);

      // Five open in all: the server's own cap refuses a third account.
      const full = await openStream(eventsUrl(heldRuns['cy']!), tokens['cy']!);
      expect(full.status).toBe(429);
      expect((JSON.parse(await full.body) as { error: { hint: string } }).error.hint).toContain('FORGE_SSE_MAX_STREAMS');

      // A stream that ends gives its slot back.
      streams.shift()!.close();
      await vi.waitFor(() => expect(server.eventStreams.openCount()).toBe(4));
      const admitted = await openStream(eventsUrl(heldRuns['cy']!), tokens['cy']!);
      streams.push(admitted);
      expect(admitted.status).toBe(200);
    } finally {
      for (const stream of streams) stream.close();
    }
    await vi.waitFor(() => expect(server.eventStreams.openCount()).toBe(0));
  });

  it('drops a client that never reads, so its backlog never piles up in the server, and frees its slot', async () => {
    // A raw socket that sends the request and then never reads a byte.
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(origin).port) });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause();
    socket.write(`GET /api/v1/runs/${chattyRun}/events HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nAuthorization: Bearer ${tokens['ada']}\r\nAccept: text/event-stream\r\n\r\n`);
    await vi.waitFor(() => expect(server.eventStreams?.openCount()).toBe(1));

    // The server gives up on it (a paused socket notices nothing until it reads again).
    await vi.waitFor(() => expect(server.eventStreams.openCount()).toBe(0), { timeout: 20_000 });

    // Reading again, the client finds the connection gone with what its socket buffers held, a fraction of the 26 MB.
    const ended = new Promise<void>((resolve) => {
      socket.once('error', () => resolve());
      socket.once('end', () => resolve());
    });
    socket.resume();
    await ended;
    expect(socket.bytesRead).toBeLessThan((LOG_LINES * LINE.length) / 2);
    socket.destroy();
  });

  it('streams many events to a reader without piling up close listeners on the response', async () => {
    const ada = new ForgeClient({ baseUrl: origin, token: tokens['ada']! });
    const read = await ada.readEvents(chattyRun);
    expect(read.events.filter((event) => event.type === 'tool-log')).toHaveLength(LOG_LINES);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
