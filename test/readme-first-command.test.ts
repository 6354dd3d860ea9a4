import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The README's first command: the first line of its first sh block, its comment dropped. */
async function readmeFirstCommand(): Promise<string> {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const block = /```sh\n([^\n]+)\n/.exec(readme);
  if (block === null) throw new Error('the README has no sh block');
  return block[1]!.replace(/\s+#.*$/, '').trim();
}

function runShell(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

// A real install from the npm cache (prefer-offline), into a global prefix in a temp folder, on a
// fresh clone of the committed HEAD: what a new user does, isolated from this machine's globals.
describe("the README's first command, on a fresh clone, twice in a row", () => {
  let scratch: string;
  let clone: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'forge-readme-'));
    clone = path.join(scratch, 'forge');
    execFileSync('git', ['clone', '--quiet', root, clone]);
    const prefix = path.join(scratch, 'prefix');
    const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    // The scratch HOME has no ~/.npmrc: the machine's registry and certificate settings come along, as a user's own would.
    const npmSetting = (key: string) => {
      const value = execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
      return value === '' || value === 'null' || value === 'undefined' ? {} : { [`npm_config_${key}`]: value };
    };
    env = {
      PATH: `${path.join(prefix, 'bin')}:${process.env['PATH'] ?? ''}`,
      HOME: path.join(scratch, 'home'),
      FORGE_HOME: path.join(scratch, 'forge-home'),
      npm_config_prefix: prefix,
      npm_config_cache: cache,
      ...npmSetting('registry'),
      ...npmSetting('cafile'),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('installs, puts forge on the PATH and runs the demo, both times', async () => {
    const command = await readmeFirstCommand();
    expect(command).not.toMatch(/npx forge/);
    for (const attempt of [1, 2]) {
      const result = await runShell(command, clone, env);
      expect(result.code, `attempt ${attempt}:\n${result.output.slice(-3000)}`).toBe(0);
      expect(result.output).toContain('Forge demo: pay for reasoning once, replay for free.');
      expect(result.output).toContain(`in your Forge home, ${env['FORGE_HOME']}`);
    }
  }, 240_000);
});
