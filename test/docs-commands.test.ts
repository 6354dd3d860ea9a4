import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGE_BIN } from './support/built-cli.js';
import { documentationFiles, runnableBlocks } from './support/markdown-docs.js';

/** Guides whose task can be tried with no key and no network: each must show it in a runnable block. */
const GUIDES_WITH_OFFLINE_COMMANDS = ['getting-started', 'running-agents', 'tools', 'toolbox', 'mcp', 'skills', 'agent-definitions', 'policy-and-approvals', 'server-and-api', 'configuration', 'security', 'troubleshooting'];

const guides = documentationFiles().filter((document) => runnableBlocks(document.text).length > 0);

function runScript(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

// Each guide's runnable blocks run in order, as a reader pastes them: `sh -e` (a failing command fails
// the block), `forge` on the PATH as `npm link` puts it, an empty Forge home and working folder of the
// guide's own, and an environment with no model key, no model and nothing from this machine's settings.
describe("the guides' runnable commands, offline", () => {
  let scratch: string;
  let bin: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'forge-docs-'));
    bin = path.join(scratch, 'bin');
    await mkdir(bin);
    await symlink(FORGE_BIN, path.join(bin, 'forge'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('marks offline commands in every guide whose task has some', () => {
    const marked = new Set(guides.map((document) => path.posix.basename(document.file, '.md')));
    expect(GUIDES_WITH_OFFLINE_COMMANDS.filter((guide) => !marked.has(guide))).toEqual([]);
  });

  it.concurrent.each(guides.map((document) => [document.file, document] as const))('%s', async (file, document) => {
    const folder = path.join(scratch, path.basename(file, '.md'));
    const env = {
      PATH: `${bin}:${process.env['PATH'] ?? ''}`,
      HOME: path.join(folder, 'home'),
      FORGE_HOME: path.join(folder, 'forge-home'),
      LANG: 'C.UTF-8',
    };
    const work = path.join(folder, 'work');
    await mkdir(work, { recursive: true });
    for (const block of runnableBlocks(document.text)) {
      const result = await runScript(block.body, work, env);
      expect(result.code, `${file}:${block.line}:\n${block.body}\n--- output ---\n${result.output.slice(-4000)}`).toBe(0);
    }
  }, 240_000);
});
