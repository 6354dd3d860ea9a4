import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { startFloodingMcpServer } from '../../../test/fixtures/mcp/flooding-mcp-server.js';
import { createGuardedStreamFetch, parseAllowHosts } from '../../security/index.js';
import { createClientTransport } from './client-transport.js';
import { McpClientConnection } from './mcp-client-connection.js';

const listener = { onToolsChanged: () => undefined, onLost: () => undefined };

describe('McpClientConnection', () => {
  it("checks a result against the server's output schema with linear-time patterns", async () => {
    // A low-level server: it sends whatever it is told to, unchecked, as a hostile server would.
    const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'label', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { label: { type: 'string', pattern: '^(\\w+\\s?)+$' } } } }],
    }));
    const labels = ['fine label', `${'a'.repeat(61)}!`];
    server.setRequestHandler(CallToolRequestSchema, () => {
      const label = labels.shift() ?? '';
      return { content: [{ type: 'text', text: label }], structuredContent: { label } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const connection = await McpClientConnection.open({
      serverName: 'hostile',
      transport: clientSide,
      timeoutMs: 30_000,
      listener,
      clientName: 'forge-test',
      clientVersion: '0.0.0',
    });
    try {
      await connection.listTools();
      const signal = new AbortController().signal;
      expect((await connection.callTool('label', {}, signal)).structuredContent).toEqual({ label: 'fine label' });
      // With JavaScript's RegExp, checking this 62-character label takes minutes.
      await expect(connection.callTool('label', {}, signal)).rejects.toMatchObject({ name: 'McpToolCallError', message: expect.stringMatching(/label must match pattern/) });
    } finally {
      await connection.close();
      await server.close();
    }
  });

  it('stops reading a 64 MiB answer sent as one server-sent event, and says why the call failed', async () => {
    const server = await startFloodingMcpServer({ answerBytes: 64 * 1024 * 1024, framing: 'sse' });
    const fetch = createGuardedStreamFetch({ allowHosts: parseAllowHosts(`127.0.0.1:${server.port}`) });
    const transport = createClientTransport({ serverName: 'flood', transport: 'streamable-http', url: server.url, headers: {} }, { fetch, stdio: 'refuse' });
    const connection = await McpClientConnection.open({ serverName: 'flood', transport, timeoutMs: 3_000, listener, clientName: 'forge-test', clientVersion: '0.0.0' });
    try {
      await expect(connection.callTool('flood', {}, new AbortController().signal)).rejects.toMatchObject({
        name: 'McpConnectionError',
        message: expect.stringContaining('one event of the stream passed 16777216 bytes, the cap on one message'),
      });
      // The stream was cut near the cap (socket buffers add a little), far from 64 MiB.
      expect(server.callBytesWritten.reduce((total, bytes) => total + bytes, 0)).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await connection.close();
      await server.close();
    }
  });
});
