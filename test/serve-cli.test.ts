import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgeClient } from '../src/client/index.js';
import type { ForgeEvent } from '../src/core/index.js';
import { FORGE_BIN, runCli } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

const MODEL = 'openai:gpt-4.1-mini';

/** A `forge serve` process: resolves once it prints where it listens. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [FORGE_BIN, 'serve', '--port', '0', '--json'], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const listening = new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      try {
        resolve((JSON.parse(stdout) as { url: string }).url.replace(/\/api\/v1$/, ''));
      } catch {
        // Not the whole document yet.
      }
    });
    void exited.then(() => reject(new Error(`forge serve exited before listening: ${stderr}`)));
  });
  return { child, listening, exited, stderr: () => stderr };
}

/** `forge serve` from the built CLI: events survive a server killed mid-run, and SIGTERM ends streams cleanly. */
describe('forge serve', () => {
  let world: EngineWorld;
  let heldCall: (() => void) | undefined;
  let modelWaits: (() => void) | undefined;
  let arrivals = 0;

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: 'survive a restart', hasToolResult: false }, { toolCalls: [{ id: 'restart_search', name: 'web_search', arguments: { query: 'forge caching' } }] });
    world.mock.addFixture({
      match: { toolCallId: 'restart_search' },
      response: () => {
        arrivals += 1;
        if (arrivals > 1) return { content: 'Answered after the restart.' };
        return new Promise((resolve) => {
          heldCall = () => resolve({ content: 'never delivered' });
          modelWaits?.();
        });
      },
    });
  });
  afterAll(async () => {
    heldCall?.();
    await world?.close();
  });

  it('a run whose server was killed mid-run resumes through the API, and its stream goes on across the restart without gaps or duplicates', async () => {
    const first = startServer(world.env);
    const client = new ForgeClient({ baseUrl: await first.listening });
    const waits = new Promise<void>((resolve) => (modelWaits = resolve));
    const { run_id: runId } = await client.startRun({ task: 'survive a restart', model: MODEL });
    const seen: ForgeEvent[] = [];
    const controller = new AbortController();
    const reading = client.readEvents(runId, { signal: controller.signal, onEvent: (event) => seen.push(event) }).catch(() => undefined);
    await waits;
    // Every event so far has reached the reader once the stream shows the held model call starting.
    while (!seen.some((event) => event.type === 'model-call-start' && event.iteration === 2)) await new Promise((resolve) => setImmediate(resolve));
    first.child.kill('SIGKILL');
    await first.exited;
    controller.abort();
    await reading;
    const lastSeen = seen.at(-1)!.seq;

    const second = startServer(world.env);
    try {
      const again = new ForgeClient({ baseUrl: await second.listening });
      expect(await again.getRun(runId)).toMatchObject({ status: 'failed', halt_reason: 'interrupted' });
      await again.resumeRun(runId);
      const rest = await again.readEvents(runId, { afterSeq: lastSeen });
      const all = [...seen, ...rest.events];
      expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index));
      expect(rest.events.some((event) => event.type === 'run-end' && event.halt_reason === 'interrupted')).toBe(true);
      expect(all.at(-1), JSON.stringify(all.at(-1))).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Answered after the restart.' });
      // The completed search was not run again.
      expect(all.filter((event) => event.type === 'tool-call-start')).toHaveLength(1);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toMatchObject({ code: 0 });
    }
  }, 90_000);

  it('refuses to listen beyond loopback without a password, naming the fix', async () => {
    const refused = spawn(process.execPath, [FORGE_BIN, 'serve', '--host', '0.0.0.0', '--port', '0'], { env: { PATH: process.env['PATH'] ?? '', ...world.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    refused.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => refused.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('without an access token');
    expect(stderr).toContain('--auth accounts');
  }, 30_000);

  it('with an account, serves with accounts by default: sign-in and a service key made by the CLI work, anonymous calls do not', async () => {
    const env = { ...world.env, FORGE_HOME: `${world.home}/accounts-home` };
    const added = await runCli(['users', 'add', 'ada@example.com', '--admin'], env, { input: 'a long enough password\n' });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout + added.stderr).not.toContain('a long enough password');
    const server = startServer(env);
    try {
      const origin = await server.listening;
      expect((await new ForgeClient({ baseUrl: origin }).listRuns().catch((error: unknown) => error))).toMatchObject({ status: 401 });
      const ada = new ForgeClient({ baseUrl: origin });
      await ada.login('ada@example.com', 'a long enough password');
      expect(await ada.me()).toMatchObject({ via: 'session', user: { email: 'ada@example.com' } });
      const created = await runCli(['api-keys', 'create', '--name', 'ci', '--scope', 'runs:read', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      const { key, api_key: record } = JSON.parse(created.stdout) as { key: string; api_key: { key_id: string } };
      const service = new ForgeClient({ baseUrl: origin, apiKey: key });
      expect(await service.listRuns()).toEqual({ runs: [], next_cursor: null });
      expect(await service.startRun({ task: 'x', model: MODEL }).catch((error: unknown) => error)).toMatchObject({ status: 403, code: 'MissingScope' });
      const revoked = await runCli(['api-keys', 'revoke', record.key_id], env);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(await service.listRuns().catch((error: unknown) => error)).toMatchObject({ status: 401 });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 60_000);
});
