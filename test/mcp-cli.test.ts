import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { registerMcpCommand } from '../src/cli/commands/mcp-command.js';
import { registerToolsCommand } from '../src/cli/commands/tools-command.js';
import { startFixtureMcpServer, type FixtureMcpServer } from './fixtures/mcp/fixture-mcp-server.js';

// `forge mcp …` and `forge tools …` as a user runs them, each command opening and closing its own
// runtime on one FORGE_HOME: every command after `add` finds the server only because it was stored
// and reconnected. (In-process, because starting the whole CLI under tsx costs seconds per command.)
describe('forge mcp (CLI)', () => {
  let server: FixtureMcpServer;
  let home: string;

  beforeAll(async () => {
    server = await startFixtureMcpServer({
      name: 'fixture',
      tools: {
        add: { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, handler: (args) => ({ content: [{ type: 'text', text: String(Number(args['a']) + Number(args['b'])) }] }) },
      },
    });
    home = await mkdtemp(join(tmpdir(), 'forge-mcp-cli-'));
    vi.stubEnv('FORGE_HOME', home);
    vi.stubEnv('FORGE_ALLOW_HOSTS', `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await server?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  async function forge(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
    const program = new Command().exitOverride();
    registerMcpCommand(program);
    registerToolsCommand(program);
    let stdout = '';
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    process.exitCode = undefined;
    try {
      await program.parseAsync(['node', 'forge', ...args, '--json']);
    } finally {
      write.mockRestore();
    }
    const code = Number(process.exitCode ?? 0);
    process.exitCode = undefined;
    return { code, json: JSON.parse(stdout) as Record<string, unknown> };
  }

  it('adds, lists, shows, calls and removes a server, each command on a fresh runtime', async () => {
    const added = await forge('mcp', 'add', 'calc', server.url, '--header', 'Authorization=Bearer cli-secret');
    expect(added).toMatchObject({ code: 0, json: { server: { name: 'calc', state: 'connected', tools: ['mcp__calc__add'], headers: ['Authorization'] } } });

    const listed = await forge('mcp', 'list');
    expect(listed).toMatchObject({ code: 0, json: { servers: [{ name: 'calc', state: 'connected', last_error: null, tools: ['mcp__calc__add'] }] } });

    const tools = await forge('mcp', 'tools', 'calc');
    expect(tools.json).toMatchObject({ tools: [{ name: 'mcp__calc__add', remote_name: 'add', input_schema: { required: ['a', 'b'] } }] });

    const registry = await forge('tools', 'list');
    expect((registry.json['tools'] as { name: string }[]).map((tool) => tool.name)).toContain('mcp__calc__add');

    const called = await forge('tools', 'call', 'mcp__calc__add', '--input', '{"a": 2, "b": 40}');
    expect(called).toMatchObject({ code: 0, json: { ok: true, tool: 'mcp__calc__add', untrusted: true } });
    expect(called.json['output']).toContain('42');

    const refreshed = await forge('mcp', 'refresh', 'calc');
    expect(refreshed).toMatchObject({ code: 0, json: { server: { state: 'connected' } } });

    expect(server.authorizations.filter((value) => value !== 'Bearer cli-secret')).toEqual([]);
    const database = await readFile(join(home, 'forge.db'));
    expect(database.includes('cli-secret')).toBe(false);

    expect(await forge('mcp', 'remove', 'calc')).toMatchObject({ code: 0, json: { removed: true } });
    expect(await forge('mcp', 'list')).toMatchObject({ json: { servers: [] } });
    expect(await forge('mcp', 'tools', 'calc')).toMatchObject({ code: 1, json: { error: { name: 'NotFoundError' } } });
  });
});
