import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileMcpServer, type HostileMcpServer } from './fixtures/mcp/hostile-mcp-server.js';
import { ESCAPE_TEXT, TERMINAL_CONTROL, runLogWithEscapes } from './fixtures/runs/escape-sequences.js';
import { runCli, type CliResult } from './support/built-cli.js';

function expectNoTerminalControl(result: CliResult): void {
  expect(TERMINAL_CONTROL.exec(result.stdout)?.[0], `stdout: ${JSON.stringify(result.stdout.slice(0, 400))}`).toBeUndefined();
  expect(TERMINAL_CONTROL.exec(result.stderr)?.[0], `stderr: ${JSON.stringify(result.stderr.slice(0, 400))}`).toBeUndefined();
}

/**
 * Finding 13 of issue 11: raw escape sequences from tools and models must never reach the terminal
 * (OSC 52 clipboard writes, window titles, screen clears, C1 controls). Driven through the built CLI;
 * the live view is attacked in a real terminal in tui-replay-terminal.test.ts.
 */
describe('terminal output under escape-sequence injection', () => {
  let mcp: HostileMcpServer;
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    mcp = await startHostileMcpServer({
      escape: { description: `Answers with escapes ${ESCAPE_TEXT}`, call: () => ({ content: [{ type: 'text', text: ESCAPE_TEXT }] }) },
      fail_escape: { description: 'Fails with escapes.', call: () => ({ isError: true, content: [{ type: 'text', text: ESCAPE_TEXT }] }) },
    });
    home = await mkdtemp(path.join(tmpdir(), 'forge-security-terminal-'));
    env = { FORGE_HOME: home, FORGE_ALLOW_HOSTS: `127.0.0.1:${mcp.port}` };
    const added = await runCli(['mcp', 'add', 'hostile', mcp.url, '--json'], env);
    expect(added.code, added.stderr + added.stdout).toBe(0);
  });
  afterAll(async () => {
    await mcp?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it('forge tools call prints a result and its event lines without control characters', async () => {
    const result = await runCli(['tools', 'call', 'mcp__hostile__escape', '--input', '{}'], env);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('before');
    expect(result.stdout).toContain('after');
    expect(result.stderr).toContain('tool-result');
    expectNoTerminalControl(result);
  });

  it('forge tools call prints an error and its event lines without control characters, with --json too', async () => {
    const plain = await runCli(['tools', 'call', 'mcp__hostile__fail_escape', '--input', '{}'], env);
    const json = await runCli(['tools', 'call', 'mcp__hostile__fail_escape', '--input', '{}', '--json'], env);

    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('tool-error');
    expectNoTerminalControl(plain);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { ok: boolean }).ok).toBe(false);
    expectNoTerminalControl(json);
  });

  it('forge tools list and show print third-party descriptions without control characters', async () => {
    const list = await runCli(['tools', 'list'], env);
    const show = await runCli(['tools', 'show', 'mcp__hostile__escape'], env);
    const tools = await runCli(['mcp', 'tools', 'hostile'], env);

    for (const result of [list, show, tools]) {
      expect(result.code, result.stderr).toBe(0);
      expectNoTerminalControl(result);
    }
    expect(show.stdout).toContain('Answers with escapes');
  });

  it('forge replay --no-tui prints a run log full of escapes as plain lines', async () => {
    const log = path.join(home, 'escapes.jsonl');
    await writeFile(log, runLogWithEscapes('run-escapes'));

    const result = await runCli(['replay', log, '--no-tui'], env);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('tool-error');
    expect(result.stdout).toContain('page said before');
    expectNoTerminalControl(result);
  });
});
