import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, type AnyTool, type GuardedFetch } from '../../core/index.js';
import { callTool, createToolContext, rejection } from '../../../test/fixtures/tool-context.js';
import { ShellIsolationUnavailableError, createShellTools, detectIsolationBoundary, type ShellOutput } from './index.js';
import { createShellTool } from './shell-tool.js';

const noNetwork: GuardedFetch = () => Promise.reject(new Error('the shell tool never fetches'));
const context = () => createToolContext({ fetch: noNetwork });

let base: string;
let workspace: string;
// Outside the workspace and outside /tmp (which the boundary replaces with a tmpfs of its own), so a
// write that got through would land on the host's own folder.
let outside: string;
let listener: Server;
let connections: number;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'forge-shell-isolation-'));
  workspace = join(base, 'workspace');
  // The checkout itself may lie under /tmp (a CI clone): then the home folder is the outside.
  const tmp = await realpath(tmpdir());
  const here = await realpath(process.cwd());
  const parent = here === tmp || here.startsWith(`${tmp}/`) ? join(homedir(), '.forge-test-output') : join(here, 'test-output');
  await mkdir(parent, { recursive: true });
  outside = await realpath(await mkdtemp(join(parent, 'shell-outside-')));
  await writeFile(join(outside, 'existing'), 'keep me\n');
  connections = 0;
  listener = createServer((socket) => {
    connections += 1;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await rm(base, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function shell(tool: AnyTool, command: string): Promise<ShellOutput> {
  return (await callTool(tool, { command, timeout_seconds: 30 }, context())) as ShellOutput;
}

describe('shell isolation', () => {
  it('finds a working boundary on this host (bwrap, else unshare -rn)', async () => {
    expect((await detectIsolationBoundary())?.kind).toMatch(/^(bwrap|unshare)$/);
  });

  it('runs a command with the workspace writable, but nothing outside it and no network', async () => {
    const [tool] = createShellTools({ workspace, env: {}, server: true }) as [AnyTool];
    const port = (listener.address() as { port: number }).port;
    const connect = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (error) => { console.log(error.code); process.exit(1); })"`;
    const attacks = [
      `echo pwned > ${outside}/canary`,
      `rm -f ${outside}/existing`,
      `printf 'echo pwned > %s/script-canary\\n' ${outside} > attack.sh; sh attack.sh`,
      `python3 -c "open('${outside}/python-canary', 'w').write('pwned')"`,
      `mount -o remount,rw / && echo pwned > ${outside}/remounted`,
      `cp /bin/sh ${outside}/planted`,
    ];
    for (const attack of attacks) {
      const result = await shell(tool, attack);
      expect(result.exit_code, attack).not.toBe(0);
    }
    const network = await shell(tool, connect);
    expect(network.exit_code).toBe(1);
    expect(network.stdout).not.toContain('connected');
    expect(connections).toBe(0);

    const inside = await shell(tool, 'echo written > inside.txt && mkdir -p sub && echo deeper > sub/file && echo temporary > /tmp/scratch && cat /tmp/scratch && ls /dev');
    expect(inside.exit_code).toBe(0);
    expect(inside.stdout.split('\n')[0]).toBe('temporary');
    expect(await readFile(join(workspace, 'inside.txt'), 'utf8')).toBe('written\n');
    expect(await readFile(join(workspace, 'sub', 'file'), 'utf8')).toBe('deeper\n');
    // Only harmless devices: no disk, no memory, no terminal of the host's.
    expect(inside.stdout.split('\n').slice(1).filter((name) => name !== '').sort()).toEqual(['fd', 'full', 'null', 'random', 'shm', 'stderr', 'stdin', 'stdout', 'urandom', 'zero']);

    expect(existsSync(join(outside, 'canary'))).toBe(false);
    expect(existsSync(join(outside, 'script-canary'))).toBe(false);
    expect(existsSync(join(outside, 'python-canary'))).toBe(false);
    expect(existsSync(join(outside, 'remounted'))).toBe(false);
    expect(existsSync(join(outside, 'planted'))).toBe(false);
    expect(await readFile(join(outside, 'existing'), 'utf8')).toBe('keep me\n');
  });

  it("hides FORGE_HOME and the other accounts' folders from a command in one account's workspace, which stays writable", async () => {
    // Outside /tmp, so the boundary's own /tmp does not hide them by accident.
    const home = join(outside, 'home');
    const root = join(home, 'workspace');
    const own = join(root, 'accounts', 'account-a');
    await mkdir(join(root, 'accounts', 'account-b'), { recursive: true });
    await mkdir(join(own, '.forge'), { recursive: true });
    await writeFile(join(root, 'accounts', 'account-b', 'secret.txt'), 'B-SECRET\n');
    await writeFile(join(home, 'forge.db'), 'DATABASE-SECRET\n');
    // A project-local FORGE_HOME inside the workspace is hidden inside it too.
    await writeFile(join(own, '.forge', 'secret.key'), 'KEY-SECRET\n');
    const outsideTool = createShellTool({ workspace: root, home, server: true });
    const ownContext = { ...context(), workspace: own };
    const seen = (await callTool(outsideTool, { command: `ls -la .. ../.. ../../..; cat ../account-b/secret.txt ../../../forge.db 2>/dev/null; grep -rs SECRET ../../..; echo mine > mine.txt; true`, timeout_seconds: 30 }, ownContext)) as ShellOutput;
    expect(seen.exit_code, JSON.stringify(seen)).toBe(0);
    expect(`${seen.stdout}${seen.stderr}`).not.toMatch(/B-SECRET|DATABASE-SECRET|account-b|forge\.db/);
    expect(await readFile(join(own, 'mine.txt'), 'utf8')).toBe('mine\n');
    const insideTool = createShellTool({ workspace: own, home: join(own, '.forge'), server: true });
    const inside = (await callTool(insideTool, { command: 'cat .forge/secret.key; ls -a .forge; echo still > written.txt; true', timeout_seconds: 30 }, context())) as ShellOutput;
    expect(`${inside.stdout}${inside.stderr}`).not.toContain('KEY-SECRET');
    expect(await readFile(join(own, 'written.txt'), 'utf8')).toBe('still\n');
  });

  it('refuses the shell on a server where no boundary works, before anything runs', async () => {
    const none = async () => undefined;
    const served = createShellTool({ workspace, server: true, detect: none });
    const error = await rejection(shell(served, `touch canary; echo pwned > ${outside}/canary`));
    expect(error).toBeInstanceOf(ShellIsolationUnavailableError);
    expect(error.hint).toContain('FORGE_SHELL_ISOLATION=off');
    const required = createShellTool({ workspace, isolation: 'required', detect: none });
    expect(await rejection(shell(required, 'touch canary'))).toBeInstanceOf(ShellIsolationUnavailableError);
    expect(existsSync(join(workspace, 'canary'))).toBe(false);
    expect(existsSync(join(outside, 'canary'))).toBe(false);
  });

  it('runs directly where the operator opted in (off), or from the CLI where no boundary works', async () => {
    let probes = 0;
    const none = async () => {
      probes += 1;
      return undefined;
    };
    const optedIn = createShellTool({ workspace, isolation: 'off', server: true, detect: none });
    expect((await shell(optedIn, `echo direct > ${outside}/opted-in`)).exit_code).toBe(0);
    expect(probes).toBe(0);
    const local = createShellTool({ workspace, detect: none });
    expect((await shell(local, 'echo local > here')).exit_code).toBe(0);
    expect(await readFile(join(workspace, 'here'), 'utf8')).toBe('local\n');
    expect(await readFile(join(outside, 'opted-in'), 'utf8')).toBe('direct\n');
  });

  it('refuses a FORGE_SHELL_ISOLATION it does not know', () => {
    expect(() => createShellTools({ workspace, env: { FORGE_SHELL_ISOLATION: 'sometimes' } })).toThrow(ConfigurationError);
  });
});
