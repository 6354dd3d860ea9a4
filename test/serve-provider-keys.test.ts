import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgeClient } from '../src/client/index.js';
import { openRuntime, rotateSecretKey, secretKeyStatus, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi } from '../src/server/api/index.js';

const MODEL = 'openai:gpt-4.1-mini';
const PASSWORD = 'a long enough password';
const ADA_KEY = 'sk-ada-own-key-0123456789abcd';
const SERVER_KEY = 'sk-the-servers-key-00000000';

/** Provider keys per account, sealed at rest: used by the owner's runs, never shown, and the server refuses a wrong secret key. */
describe('provider keys per account', () => {
  // The model accepts only ada's own key: a run that completes sent it; one sent the server's key fails.
  const mock = new LLMock({ port: 0, host: '127.0.0.1', auth: { apiKeys: [ADA_KEY] } });
  let home: string;
  const secretKey = randomBytes(32).toString('hex');
  let env: Record<string, string>;

  async function open(extra: Record<string, string> = {}): Promise<ForgeRuntime> {
    return openRuntime({ ...env, ...extra }, home, { mcp: { startupWaitMs: 0 } });
  }

  beforeAll(async () => {
    await mock.start();
    mock.on({ userMessage: 'ada asks', hasToolResult: false }, { content: 'Answer for ada.' });
    mock.on({ userMessage: 'bob asks', hasToolResult: false }, { content: 'Answer for bob.' });
    mock.on({ userMessage: 'ada again', hasToolResult: false }, { content: 'Again.' });
    home = await mkdtemp(path.join(tmpdir(), 'forge-provider-keys-'));
    env = { FORGE_HOME: home, OPENAI_API_KEY: SERVER_KEY, OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_SECRET_KEY: secretKey };
  });
  afterAll(async () => {
    await mock.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('an account\'s runs use its own sealed key; others use the server\'s; the key is never shown or stored in clear', async () => {
    const runtime = await open();
    await runtime.accounts.addUser({ email: 'ada@example.com', password: PASSWORD, role: 'admin' });
    await runtime.accounts.addUser({ email: 'bob@example.com', password: PASSWORD });
    const server = await serveApi(runtime, { port: 0, auth: 'accounts' });
    try {
      const ada = new ForgeClient({ baseUrl: server.listener.origin });
      await ada.login('ada@example.com', PASSWORD);
      const bob = new ForgeClient({ baseUrl: server.listener.origin });
      await bob.login('bob@example.com', PASSWORD);

      const stored = await ada.setProviderKey('openai', ADA_KEY);
      expect(stored).toEqual({ provider: 'openai', last4: 'abcd', created_at: expect.any(String), updated_at: expect.any(String) });
      expect(JSON.stringify(await ada.listProviderKeys())).not.toContain(ADA_KEY.slice(0, 12));
      expect(await bob.listProviderKeys()).toEqual([]);
      const rows = await runtime.store.providerKeys.list();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.sealedKey).toMatch(/^v2\./);
      expect(rows[0]!.sealedKey).not.toContain(ADA_KEY);
      expect(await readFile(path.join(home, 'forge.db')).then((bytes) => bytes.includes(Buffer.from(ADA_KEY)))).toBe(false);

      const adaRun = await ada.startRun({ task: 'ada asks', model: MODEL });
      const adaEvents = await ada.readEvents(adaRun.run_id);
      expect(adaEvents.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Answer for ada.' });
      expect(JSON.stringify(adaEvents.events)).not.toContain(ADA_KEY);
      const bobRun = await bob.startRun({ task: 'bob asks', model: MODEL });
      const bobEnd = (await bob.readEvents(bobRun.run_id)).events.at(-1);
      expect(bobEnd).toMatchObject({ type: 'run-end', status: 'failed' });
      expect(JSON.stringify(bobEnd)).toMatch(/401|API key|auth/i);
      expect(JSON.stringify(bobEnd)).not.toContain(SERVER_KEY);
      const refused = await bob.setProviderKey('not-a-vendor', 'sk-123456789').catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 400 });
    } finally {
      await server.close();
      await runtime.close();
    }
  });

  it('after a restart the stored key still works; a wrong FORGE_SECRET_KEY refuses to start, naming the cause', async () => {
    const runtime = await open();
    const server = await serveApi(runtime, { port: 0, auth: 'accounts' });
    try {
      const ada = new ForgeClient({ baseUrl: server.listener.origin });
      await ada.login('ada@example.com', PASSWORD);
      const run = await ada.startRun({ task: 'ada again', model: MODEL });
      expect((await ada.readEvents(run.run_id)).events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', answer: 'Again.' });
    } finally {
      await server.close();
      await runtime.close();
    }

    const wrong = await open({ FORGE_SECRET_KEY: randomBytes(32).toString('hex') });
    try {
      const refusal = await serveApi(wrong, { port: 0, auth: 'accounts' }).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ name: 'SecretKeyError', message: expect.stringMatching(/FORGE_SECRET_KEY in use \(key id [0-9a-f]{8}\) is not the key that sealed 1 stored provider key \(key id [0-9a-f]{8}\)/) });
    } finally {
      await wrong.close();
    }

    // Rotating an environment-managed key needs the new key; then the stored key opens under it, and only under it.
    const newKey = randomBytes(32).toString('hex');
    const rotating = await open();
    try {
      await expect(rotateSecretKey(rotating)).rejects.toMatchObject({ name: 'ConfigurationError', message: expect.stringContaining('--new-key-stdin') });
      const rotation = await rotateSecretKey(rotating, { newKey });
      expect(rotation).toMatchObject({ resealed: { providerKeys: 1 }, keyFile: null });
      expect(rotation.toKeyId).not.toBe(rotation.fromKeyId);
      expect(await secretKeyStatus(rotating)).toMatchObject({ source: 'environment', keyId: rotation.fromKeyId, unreadable: 1 });
    } finally {
      await rotating.close();
    }
    const rotated = await open({ FORGE_SECRET_KEY: newKey });
    const rotatedServer = await serveApi(rotated, { port: 0, auth: 'accounts' });
    try {
      const ada = new ForgeClient({ baseUrl: rotatedServer.listener.origin });
      await ada.login('ada@example.com', PASSWORD);
      const run = await ada.startRun({ task: 'ada again', model: MODEL });
      expect((await ada.readEvents(run.run_id)).events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
      expect(await secretKeyStatus(rotated)).toMatchObject({ unreadable: 0, sealed: { providerKeys: 1 } });
    } finally {
      await rotatedServer.close();
      await rotated.close();
    }
    env = { ...env, FORGE_SECRET_KEY: newKey };

    const missing = await open({ FORGE_SECRET_KEY: '' });
    try {
      const refusal = await serveApi(missing, { port: 0, auth: 'accounts' }).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ name: 'SecretKeyError', message: expect.stringContaining('no secret key is configured') });
    } finally {
      await missing.close();
    }
  });
});
