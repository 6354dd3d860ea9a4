import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installationSecretBox } from '../adapters/store/index.js';
import { openRuntime } from '../runs/task-runs.js';
import { rotateSecretKey, secretKeyStatus } from './secret-key-rotation.js';

describe('rotating a file-managed secret key', () => {
  const homes: string[] = [];
  afterEach(async () => {
    await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
  });

  it('reseals provider keys and MCP headers under a new key file, keeps the old file private, and everything opens after a restart', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'forge-rotate-'));
    homes.push(home);
    const first = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    try {
      await first.providerKeys.set('u-1', 'openai', 'sk-rotate-me-12345678');
      const box = installationSecretBox({ secretKey: undefined, home });
      await first.store.mcpServers.create({ name: 'docs', transport: 'streamable-http', url: 'https://mcp.example.org/mcp', sealedHeaders: box.seal(JSON.stringify({ authorization: 'Bearer header-secret' })), enabledTools: null, trustAnnotations: false });
      const before = await secretKeyStatus(first);
      expect(before).toMatchObject({ source: 'file', sealed: { providerKeys: 1, mcpServers: 1 }, unreadable: 0 });
      const oldKey = await readFile(path.join(home, 'secret.key'), 'utf8');

      const rotation = await rotateSecretKey(first);
      expect(rotation).toMatchObject({ fromKeyId: before.keyId, resealed: { providerKeys: 1, mcpServers: 1 }, keyFile: path.join(home, 'secret.key') });
      expect(rotation.previousKeyFile).toBe(path.join(home, `secret.key.${before.keyId}.old`));
      expect(await readFile(rotation.previousKeyFile!, 'utf8')).toBe(oldKey);
      expect(statSync(rotation.previousKeyFile!).mode & 0o777).toBe(0o600);
      expect(statSync(rotation.keyFile!).mode & 0o777).toBe(0o600);
      expect(await readFile(rotation.keyFile!, 'utf8')).not.toBe(oldKey);
    } finally {
      await first.close();
    }

    const second = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    try {
      const after = await secretKeyStatus(second);
      expect(after).toMatchObject({ source: 'file', unreadable: 0 });
      expect(await second.providerKeys.credentialsFor('u-1', { get: async () => undefined }).get('openai')).toBe('sk-rotate-me-12345678');
      const sealed = (await second.store.mcpServers.get('docs'))!.sealedHeaders!;
      expect(JSON.parse(installationSecretBox({ secretKey: undefined, home }).open(sealed))).toEqual({ authorization: 'Bearer header-secret' });
    } finally {
      await second.close();
    }
  });

  it('changes nothing when a sealed secret does not open with the current key', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'forge-rotate-'));
    homes.push(home);
    const runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    try {
      await runtime.providerKeys.set('u-1', 'openai', 'sk-rotate-me-12345678');
      await runtime.store.providerKeys.put({ userId: 'u-2', provider: 'openai', sealedKey: 'v2.00000000.a.b.c', last4: 'xxxx' });
      const keyBefore = await readFile(path.join(home, 'secret.key'), 'utf8');
      await expect(rotateSecretKey(runtime)).rejects.toMatchObject({ name: 'SecretBoxError' });
      expect(await readFile(path.join(home, 'secret.key'), 'utf8')).toBe(keyBefore);
      expect(await secretKeyStatus(runtime)).toMatchObject({ unreadable: 1 });
    } finally {
      await runtime.close();
    }
  });
});
