import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFixtureMcpServer, type FixtureMcpServer } from './fixtures/mcp/fixture-mcp-server.js';
import { startFloodingMcpServer } from './fixtures/mcp/flooding-mcp-server.js';
import { samplePeakRss } from './support/process-memory.js';
import { runCli, type CliResult } from './support/built-cli.js';

function json(result: CliResult): Record<string, unknown> {
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** Remote MCP servers attacking Forge's client through `forge mcp add` and `forge tools call` on the built binary. */
describe('a hostile MCP server (from the command line)', () => {
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-mcp-attack-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  describe('whose input schema carries a catastrophic pattern', () => {
    let server: FixtureMcpServer;
    let env: Record<string, string>;
    const received: string[] = [];

    beforeAll(async () => {
      server = await startFixtureMcpServer({
        name: 'redos',
        tools: {
          tag: {
            description: 'Tags a label.',
            inputSchema: { label: z.string().regex(/^(\w+\s?)+$/) },
            handler: (args) => {
              received.push(String(args['label']));
              return { content: [{ type: 'text', text: `tagged ${String(args['label'])}` }] };
            },
          },
        },
      });
      env = { FORGE_HOME: path.join(home, 'redos'), FORGE_ALLOW_HOSTS: `127.0.0.1:${server.port}` };
      const added = await runCli(['mcp', 'add', 'redos', server.url, '--json'], env);
      expect(added.code, added.stderr).toBe(0);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('refuses an argument the pattern rejects at once, instead of backtracking for minutes', async () => {
      const schema = json(await runCli(['mcp', 'tools', 'redos', '--json'], env));
      expect(JSON.stringify(schema)).toContain('"pattern":"^(\\\\w+\\\\s?)+$"');

      const label = `${'a'.repeat(61)}!`;
      const startedAt = performance.now();
      const called = await runCli(['tools', 'call', 'mcp__redos__tag', '--json', '--input', JSON.stringify({ label })], env, { timeoutMs: 30_000 });
      console.info(`a 62-character argument against ^(\\w+\\s?)+$: ${((performance.now() - startedAt) / 1000).toFixed(1)} s, exit ${called.code ?? called.signal}`);
      // Generous: it tells "answers" from "hangs" (the backtracking takes minutes; killed at 30 s before the fix).
      expect(called.signal, 'validation did not finish within 30 s').toBeNull();
      expect(called.code).toBe(1);
      expect(json(called)).toMatchObject({ ok: false, error: { name: 'ToolInputError', message: expect.stringContaining('label') } });
      expect(received).toEqual([]);

      const fine = await runCli(['tools', 'call', 'mcp__redos__tag', '--json', '--input', JSON.stringify({ label: 'hello world' })], env);
      expect(fine.code, fine.stderr).toBe(0);
      expect(json(fine)['output']).toContain('tagged hello world');
      expect(received).toEqual(['hello world']);
    });
  });

  // The same answer as one server-sent event is capped too (src/tools/mcp/mcp-client-connection.test.ts);
  // there the call fails at the request timeout, which a unit test can shorten.
  it('stops reading a 64 MiB tools/call answer at the message cap', async () => {
    const framing = 'json';
    const server = await startFloodingMcpServer({ answerBytes: 64 * 1024 * 1024, framing });
    try {
      const env = { FORGE_HOME: path.join(home, `flood-${framing}`), FORGE_ALLOW_HOSTS: `127.0.0.1:${server.port}` };
      const added = await runCli(['mcp', 'add', 'flood', server.url, '--json'], env);
      expect(added.code, added.stderr).toBe(0);

      const memory = { peakBytes: 0 };
      let sampler: NodeJS.Timeout | undefined;
      const called = await runCli(['tools', 'call', 'mcp__flood__flood', '--json', '--input', '{}'], env, { timeoutMs: 60_000, onSpawn: (child) => (sampler = samplePeakRss(child.pid, memory)) });
      clearInterval(sampler);
      const written = server.callBytesWritten.reduce((total, bytes) => total + bytes, 0);
      console.info(`64 MiB answer (${framing}): the server wrote ${(written / 2 ** 20).toFixed(1)} MiB; CLI peak RSS ${(memory.peakBytes / 2 ** 20).toFixed(0)} MiB; exit ${called.code ?? called.signal}`);
      expect(called.signal).toBeNull();
      expect(called.code).toBe(1);
      expect(JSON.stringify(json(called)['error'])).toMatch(/16777216 bytes/);
      // The client stopped reading near the 16 MiB cap (socket buffers add a little), far from 64 MiB.
      expect(written).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });
});
