import { spawn } from 'node:child_process';
import { access, chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGE_BIN, runCli, type CliResult } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

const rawCodes = /ENOENT|EEXIST|EACCES|SQLITE_|EADDRINUSE|ConnectionFailed|fetch failed/;

function expectActionable(result: CliResult, code: number, message: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toMatch(/hint: /);
  expect(result.stderr).not.toMatch(rawCodes);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** Writes straight into the SQLite file, as a crash, a bad edit or another program would. */
function writeIntoStore(home: string, sql: string, ...args: unknown[]): void {
  const db = new Database(path.join(home, 'forge.db'));
  try {
    db.prepare(sql).run(...args);
  } finally {
    db.close();
  }
}

describe('recovery from broken state, through the built binary', () => {
  let world: EngineWorld;

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: 'recovery task' }, { content: 'Recovered and done.' });
  });
  afterAll(async () => {
    await world?.close();
  });

  async function freshHome(): Promise<Record<string, string>> {
    const home = await mkdtemp(path.join(world.home, 'home-'));
    return { ...world.env, FORGE_HOME: home, HOME: home };
  }

  it('a corrupt toolbox row blocks only that tool: other commands run, it is listed with its fix, and both recovery commands work', async () => {
    const env = await freshHome();
    expect((await runCli(['runs', 'list'], env)).code).toBe(0);
    writeIntoStore(env['FORGE_HOME']!, `INSERT INTO toolbox_entries (name, status, entry, updated_at, uses) VALUES ('mangled', 'promoted', '{"name": "mangled", "sour', '2026-01-01T00:00:00Z', 0)`);

    const runs = await runCli(['runs', 'list', '--json'], env);
    expect(runs.code, runs.stderr).toBe(0);
    expect(JSON.parse(runs.stdout)).toBeDefined();
    expect(runs.stderr).toContain('The toolbox entry "mangled" in the store cannot be read');
    expect(runs.stderr).toContain('forge tools remove mangled');

    const listed = await runCli(['tools', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = JSON.parse(listed.stdout) as { tools: { name: string }[]; unreadable: { name: string; issues: string[]; hint: string }[] };
    expect(tools.tools.map((tool) => tool.name)).not.toContain('mangled');
    expect(tools.unreadable).toEqual([{ name: 'mangled', issues: ['its stored JSON does not parse'], hint: expect.stringContaining('forge run --fresh') as string }]);

    const shown = await runCli(['tools', 'show', 'mangled'], env);
    expectActionable(shown, 1, /toolbox entry "mangled" in the store cannot be read/);

    // A run without toolbox tools works, and --fresh (the recovery the hint names) empties the toolbox.
    const fresh = await runCli(['run', 'recovery task', '--fresh', '--no-tui', '--json'], env);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ status: 'completed', answer: 'Recovered and done.', llm_calls: 1 });
    const after = await runCli(['tools', 'list', '--json'], env);
    expect(after.stderr).toBe('');
    expect((JSON.parse(after.stdout) as { unreadable: unknown[] }).unreadable).toEqual([]);

    // So does the other one: `forge tools remove` a row whose JSON is whole but is no toolbox entry.
    writeIntoStore(env['FORGE_HOME']!, `INSERT INTO toolbox_entries (name, status, entry, updated_at, uses) VALUES ('hollow', 'promoted', '{"name": "hollow"}', '2026-01-01T00:00:00Z', 0)`);
    const stats = await runCli(['stats', '--all', '--json'], env);
    expect(stats.code, stats.stderr).toBe(0);
    const removed = await runCli(['tools', 'remove', 'hollow'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await runCli(['tools', 'list'], env)).stderr).toBe('');
  });

  it('a broken toolbox manifest an older Forge left is set aside with the import command, and blocks no command', async () => {
    const env = await freshHome();
    const manifest = path.join(env['FORGE_HOME']!, 'toolbox', 'manifest.json');
    await mkdir(path.dirname(manifest), { recursive: true });
    await writeFile(manifest, '{"version": 1, "tools": [');

    const runs = await runCli(['runs', 'list'], env);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stderr).toContain(`${manifest} cannot be read`);
    expect(runs.stderr).toContain(`forge tools import ${manifest}.unreadable`);
    await access(`${manifest}.unreadable`);

    const fresh = await runCli(['run', 'recovery task', '--fresh', '--no-tui', '--json'], env);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toBe('');

    const imported = await runCli(['tools', 'import', `${manifest}.unreadable`], env);
    expectActionable(imported, 1, /cannot be read/);
  });

  it('a damaged MCP server row is listed as failed with its fix, blocks no other command, and can be removed', async () => {
    const env = await freshHome();
    expect((await runCli(['runs', 'list'], env)).code).toBe(0);
    writeIntoStore(
      env['FORGE_HOME']!,
      `INSERT INTO mcp_servers (name, transport, url, sealed_headers, enabled_tools, trust_annotations, created_at, updated_at) VALUES ('mangled', 'streamable-http', 'http://127.0.0.1:9/mcp', NULL, '["echo', 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
    );
    const runs = await runCli(['runs', 'list', '--json'], env);
    expect(runs.code, runs.stderr).toBe(0);
    const listed = await runCli(['mcp', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('mangled  failed');
    expect(listed.stdout).toContain('its stored record cannot be read: its enabled_tools column is not JSON');
    expect(listed.stdout).toContain('hint: Remove it with `forge mcp remove mangled`');
    const removed = await runCli(['mcp', 'remove', 'mangled'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout)).toEqual({ servers: [] });
  });

  it('a model API nobody listens on is named with its address and the variable that set it', async () => {
    const env = await freshHome();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(['run', 'recovery task', '--no-tui'], { ...env, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    expectActionable(result, 1, new RegExp(`its API at http://127\\.0\\.0\\.1:${port}/v1/chat/completions cannot be reached: Nothing is listening at 127\\.0\\.0\\.1:${port} \\(connection refused\\)`));
    expect(result.stderr).toContain('OPENAI_BASE_URL');
  });

  it('remembers --allow-stdio for the server it was given with, and adds nothing the later commands would refuse', async () => {
    const env = await freshHome();
    const everything = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
    const commandLine = `${process.execPath} ${everything} stdio`;

    const refused = await runCli(['mcp', 'add', 'local', commandLine, '--transport', 'stdio'], env);
    expectActionable(refused, 1, /uses the stdio transport/);
    expect(refused.stderr).toContain('--allow-stdio');
    expect(refused.stderr).toContain('FORGE_MCP_ALLOW_STDIO=1');
    expect(JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout)).toEqual({ servers: [] });

    const added = await runCli(['mcp', 'add', 'local', commandLine, '--transport', 'stdio', '--allow-stdio', '--tool', 'echo', '--json'], env);
    expect(added.code, added.stderr).toBe(0);
    const listed = JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout) as { servers: { name: string; state: string; tools: string[] }[] };
    expect(listed.servers).toEqual([expect.objectContaining({ name: 'local', state: 'connected', tools: ['mcp__local__echo'] })]);
    const called = await runCli(['tools', 'call', 'mcp__local__echo', '--input', '{"message": "still allowed"}', '--json'], env);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('still allowed');
  }, 60_000);
});

describe('errors a person can act on, through the built binary', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'forge-errors-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function folder(name: string): Promise<string> {
    const made = path.join(root, name);
    await mkdir(made, { recursive: true });
    return made;
  }

  it('refuses a database URL that is neither a URL nor a path, creating no file', async () => {
    const cwd = await folder('garbage');
    const env = { FORGE_HOME: path.join(cwd, 'home'), HOME: cwd, FORGE_DATABASE_URL: 'garbage' };
    const result = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [FORGE_BIN, 'runs', 'list'], { cwd, env: { PATH: process.env['PATH'] ?? '', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    expectActionable(result, 2, /FORGE_DATABASE_URL: The value is neither a database URL nor the path of a database file/);
    expect(await readdir(cwd)).toEqual([]);
  });

  it('names a database file that is not a database, and a missing input file, with the fix', async () => {
    const home = await folder('not-a-database');
    await writeFile(path.join(home, 'forge.db'), 'these are my notes, not a database\n');
    expectActionable(await runCli(['runs', 'list'], { FORGE_HOME: home, HOME: home }), 1, new RegExp(`${path.join(home, 'forge.db')} is not a readable Forge database`));

    const other = await folder('missing-file');
    const missing = await runCli(['tools', 'import', path.join(other, 'nowhere.json')], { FORGE_HOME: other, HOME: other });
    expectActionable(missing, 2, new RegExp(`${path.join(other, 'nowhere.json')} does not exist`));
  });

  it('names a read-only database file and how to make it writable', async () => {
    const home = await folder('read-only');
    expect((await runCli(['runs', 'list'], { FORGE_HOME: home, HOME: home })).code).toBe(0);
    const database = path.join(home, 'forge.db');
    // Root writes through any mode, so as root the command runs as an unprivileged user instead.
    const asRoot = process.getuid?.() === 0;
    await chmod(root, 0o755);
    await chmod(home, 0o755);
    await chmod(database, asRoot ? 0o644 : 0o444);
    const result = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [FORGE_BIN, 'runs', 'list'], {
        env: { PATH: process.env['PATH'] ?? '', FORGE_HOME: home, HOME: home },
        ...(asRoot ? { uid: 65_534, gid: 65_534 } : {}),
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout: '', stderr }));
    });
    expectActionable(result, 1, new RegExp(`${database}`));
    expect(result.stderr).toMatch(/Permission denied|read-only/);
    expect(result.stderr).toMatch(/chmod u\+/);
  });

  describe('forge mcp serve', () => {
    let taken: Server;
    let port: number;
    beforeAll(async () => {
      taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      port = (taken.address() as { port: number }).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => taken.close(resolve));
    });

    it('names a port in use and how to pick another', async () => {
      const home = await folder('port-in-use');
      const result = await runCli(['mcp', 'serve', '--port', String(port), '--expose', 'web_search'], { FORGE_HOME: home, HOME: home });
      expectActionable(result, 1, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
      expect(result.stderr).toContain('--port 0');
    });

    it('refuses unknown --expose and --skill names before it listens', async () => {
      const home = await folder('unknown-names');
      const tool = await runCli(['mcp', 'serve', '--port', '0', '--expose', 'web_serch'], { FORGE_HOME: home, HOME: home });
      expectActionable(tool, 2, /No tool named "web_serch". Available tools: web_search/);
      const skill = await runCli(['mcp', 'serve', '--port', '0', '--skill', 'no-such-skill', '--json'], { FORGE_HOME: home, HOME: home });
      expect(skill.code).toBe(2);
      expect(JSON.parse(skill.stdout)).toEqual({ error: { name: 'ConfigurationError', message: expect.stringContaining('no stored skill named "no-such-skill"') as string, hint: expect.stringContaining('forge skill list') as string } });
    });

    it('prints what it serves once listening', async () => {
      const home = await folder('serving');
      let output = '';
      const result = await runCli(['mcp', 'serve', '--port', '0', '--expose', 'web_search', 'read_url'], { FORGE_HOME: home, HOME: home }, {
        onSpawn: (child) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes('tools:')) child.kill('SIGINT');
          });
        },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(output).toMatch(/Forge MCP server listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
      expect(output).toContain('tools:  web_search, read_url');
    });
  });
});
