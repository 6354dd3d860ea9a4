import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { ConfigurationError } from '../core/index.js';
import { installationSecretBox, newSecretKey, secretBoxFromText, secretKeyFile, secretKeySource, type SecretBox } from '../adapters/store/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';

export interface SecretKeyStatus {
  readonly source: 'environment' | 'file' | 'missing';
  readonly keyId: string | null;
  readonly sealed: { readonly providerKeys: number; readonly mcpServers: number };
  /** How many sealed secrets do not open with the key in use. */
  readonly unreadable: number;
}

export interface SecretKeyRotation {
  readonly fromKeyId: string;
  readonly toKeyId: string;
  readonly resealed: { readonly providerKeys: number; readonly mcpServers: number };
  /** The key file written (a file-managed key), or null when FORGE_SECRET_KEY manages it. */
  readonly keyFile: string | null;
  /** Where the previous key file was kept, until its owner deletes it. */
  readonly previousKeyFile: string | null;
}

function opens(box: SecretBox, sealed: string): boolean {
  try {
    box.open(sealed);
    return true;
  } catch {
    return false;
  }
}

async function sealedSecrets(runtime: ForgeRuntime) {
  const providerKeys = await runtime.store.providerKeys.list();
  const mcpServers = (await runtime.store.mcpServers.list()).filter((server) => server.sealedHeaders !== null);
  return { providerKeys, mcpServers };
}

/** What the installation's secret key is and whether every sealed secret opens with it. Makes no key. */
export async function secretKeyStatus(runtime: ForgeRuntime): Promise<SecretKeyStatus> {
  const options = { secretKey: runtime.config.secretKey, home: runtime.config.home };
  const source = secretKeySource(options);
  const { providerKeys, mcpServers } = await sealedSecrets(runtime);
  const all = [...providerKeys.map((key) => key.sealedKey), ...mcpServers.map((server) => server.sealedHeaders!)];
  if (source === 'missing') return { source, keyId: null, sealed: { providerKeys: providerKeys.length, mcpServers: mcpServers.length }, unreadable: all.length };
  const box = installationSecretBox(options);
  return { source, keyId: box.keyId(), sealed: { providerKeys: providerKeys.length, mcpServers: mcpServers.length }, unreadable: all.filter((sealed) => !opens(box, sealed)).length };
}

/**
 * Re-encrypts every sealed secret (provider keys, MCP header values) under a new key. Nothing changes
 * unless every secret opens with the current key first. A file-managed key: the new key is written
 * beside the old one first, the secrets resealed, then it replaces `secret.key` (the old file is kept as
 * `secret.key.<old id>.old` for its owner to delete). With FORGE_SECRET_KEY, `newKey` is required and
 * the caller sets FORGE_SECRET_KEY to it before the next start.
 */
export async function rotateSecretKey(runtime: ForgeRuntime, options: { newKey?: string } = {}): Promise<SecretKeyRotation> {
  const keyOptions = { secretKey: runtime.config.secretKey, home: runtime.config.home };
  const source = secretKeySource(keyOptions);
  if (source === 'missing') throw new ConfigurationError('FORGE_SECRET_KEY', 'there is no secret key to rotate yet (nothing was sealed).', 'A key is made when the first secret is stored.');
  if (source === 'environment' && options.newKey === undefined) {
    throw new ConfigurationError('--new-key-stdin', 'FORGE_SECRET_KEY manages the key, so the new key must come from you.', 'Pipe a new key in: openssl rand -hex 32 | forge secret-key rotate --new-key-stdin');
  }
  const current = installationSecretBox(keyOptions);
  const { providerKeys, mcpServers } = await sealedSecrets(runtime);
  const opened = {
    providerKeys: providerKeys.map((key) => ({ key, plain: current.open(key.sealedKey) })),
    mcpServers: mcpServers.map((server) => ({ server, plain: current.open(server.sealedHeaders!) })),
  };
  const next = options.newKey === undefined ? newSecretKey() : { text: options.newKey.trim(), box: secretBoxFromText(options.newKey) };
  if (next.box.keyId() === current.keyId()) throw new ConfigurationError('--new-key-stdin', 'the new key is the key in use.', 'Generate another: openssl rand -hex 32');
  const file = secretKeyFile(runtime.config.home);
  const staged = `${file}.next`;
  if (source === 'file') writeFileSync(staged, `${next.text}\n`, { mode: 0o600 });
  await runtime.store.providerKeys.reseal(opened.providerKeys.map(({ key, plain }) => ({ userId: key.userId, provider: key.provider, sealedKey: next.box.seal(plain) })));
  for (const { server, plain } of opened.mcpServers) await runtime.store.mcpServers.update(server.name, { sealedHeaders: next.box.seal(plain) });
  let previousKeyFile: string | null = null;
  if (source === 'file') {
    previousKeyFile = `${file}.${current.keyId()}.old`;
    renameSync(file, previousKeyFile);
    chmodSync(previousKeyFile, 0o600);
    renameSync(staged, file);
  }
  return {
    fromKeyId: current.keyId(),
    toKeyId: next.box.keyId(),
    resealed: { providerKeys: opened.providerKeys.length, mcpServers: opened.mcpServers.length },
    keyFile: source === 'file' ? file : null,
    previousKeyFile,
  };
}
