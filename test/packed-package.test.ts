import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const TASK = "How many words are in 'to be or not to be'?";
const PASSWORD = 'correct-horse-battery-staple';

/** The first ```ts block of the library guide: the example a new user copies. */
async function libraryGuideExample(): Promise<string> {
  const guide = await readFile(path.join(root, 'docs', 'library.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(guide);
  if (block === null) throw new Error('docs/library.md has no ts block');
  return block[1]!;
}

/** npm's settings for a scratch project: this machine's cache, registry and certificates, nothing global. */
function npmEnvironment(scratch: string): Record<string, string> {
  const setting = (key: string) => {
    const value = execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
    return value === '' || value === 'null' || value === 'undefined' ? {} : { [`npm_config_${key}`]: value };
  };
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: path.join(scratch, 'home'),
    ...setting('cache'),
    ...setting('registry'),
    ...setting('cafile'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/**
 * Forge as a package a user installs: `npm pack` of this checkout, installed with zod into an empty
 * project (no workspace link, no path into the checkout), then the library guide's example runs against
 * aimock, and the typed client (`forge-agent/client`) talks to a running `forge serve`.
 */
describe('the packed package, installed into an empty project', () => {
  let scratch: string;
  let project: string;
  let world: EngineWorld;
  let runtime: ForgeRuntime;
  let server: ApiServer;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'forge-packed-'));
    project = path.join(scratch, 'app');
    await mkdir(project);
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const env = npmEnvironment(scratch);
    await run('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: root, env: { ...env, HOME: process.env['HOME'] ?? env['HOME']! } });
    const tarball = (await readdir(scratch)).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error('npm pack wrote no tarball');
    const zod = (JSON.parse(await readFile(path.join(root, 'node_modules', 'zod', 'package.json'), 'utf8')) as { version: string }).version;
    await run('npm', ['install', '--no-save', path.join(scratch, tarball), `zod@${zod}`], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });

    world = await startEngineWorld();
    world.mock.on({ userMessage: TASK, hasToolResult: false }, { toolCalls: [{ id: 'call_count', name: 'word_count', arguments: { text: 'to be or not to be' } }] });
    world.mock.on({ toolCallId: 'call_count' }, { content: "'to be or not to be' has 6 words." });
    runtime = await openRuntime({ FORGE_HOME: path.join(scratch, 'server-home') }, scratch, { mcp: { startupWaitMs: 0 } });
    server = await serveApi(runtime, { port: 0, token: PASSWORD, webRoot: null });
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await world?.close();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it('declares zod as a peer dependency with its range', async () => {
    const manifest = JSON.parse(await readFile(path.join(project, 'node_modules', 'forge-agent', 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string>; dependencies?: Record<string, string> };
    expect(manifest.peerDependencies?.['zod']).toMatch(/^\^4\./);
    expect(manifest.dependencies?.['zod']).toBeUndefined();
  });

  it("runs the library guide's example from the installed package (two model calls for the run, none for the replay)", async () => {
    const report = `\nconsole.log(JSON.stringify({ run: run.status, answer: run.answer, replay: replay.status, replayCalls: replay.llm_calls, direct: direct.outcome.output }));\n`;
    await writeFile(path.join(project, 'example.mjs'), (await libraryGuideExample()) + report);
    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: project, env: { ...world.env, HOME: world.home, FORGE_MODEL: 'openai:gpt-4.1-mini' } });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ run: 'completed', answer: "'to be or not to be' has 6 words.", replay: 'completed', replayCalls: 0, direct: '{"words":3}' });
    expect(requestsMentioning(world.mock, TASK)).toHaveLength(2);
  }, 120_000);

  it('talks to a running forge serve through forge-agent/client, typed and with the server\'s errors', async () => {
    const script = `
      import { ForgeApiError, ForgeClient } from 'forge-agent/client';
      const client = new ForgeClient({ baseUrl: process.argv[2], token: process.argv[3] });
      const listed = await client.listRuns();
      const refused = await new ForgeClient({ baseUrl: process.argv[2], token: 'wrong' }).listRuns().catch((error) => error);
      console.log(JSON.stringify({ runs: listed.runs.length, refused: refused instanceof ForgeApiError ? refused.status : String(refused) }));
    `;
    await writeFile(path.join(project, 'client.mjs'), script);
    const { stdout } = await run(process.execPath, ['client.mjs', server.listener.origin, PASSWORD], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ runs: 0, refused: 401 });

    // The declarations come with it: a TypeScript consumer type-checks against the installed package.
    await writeFile(path.join(project, 'typed.ts'), "import { ForgeClient, type ForgeClientOptions } from 'forge-agent/client';\nconst options: ForgeClientOptions = { baseUrl: 'http://127.0.0.1:7700' };\nexport const runs: Promise<{ runs: { run_id: string }[] }> = new ForgeClient(options).listRuns();\n");
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['typed.ts'] }));
    await expect(run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project })).resolves.toMatchObject({ stdout: '' });
  }, 120_000);
});
