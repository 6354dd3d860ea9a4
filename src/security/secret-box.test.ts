import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../core/index.js';
import { SecretBoxError, createSecretBox, installationSecretBox, sealedKeyId, secretKeyId } from './secret-box.js';

describe('secret box', () => {
  const folders: string[] = [];
  afterEach(async () => {
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('names the key that sealed a secret by id, and still opens the older format without one', () => {
    const key = randomBytes(32);
    const box = createSecretBox(key);
    const sealed = box.seal('token');
    expect(sealedKeyId(sealed)).toBe(secretKeyId(key));
    const other = createSecretBox(randomBytes(32));
    expect(() => other.open(sealed)).toThrow(`A stored secret was sealed with key ${box.keyId()}, and the current key is ${other.keyId()}.`);
    // v1: the same layout without the key id.
    const [, , nonce, ciphertext, tag] = sealed.split('.');
    expect(box.open(['v1', nonce, ciphertext, tag].join('.'))).toBe('token');
    expect(sealedKeyId(['v1', nonce, ciphertext, tag].join('.'))).toBeNull();
  });

  it('seals to text that hides the secret, differs every time, and opens back', () => {
    const box = createSecretBox(randomBytes(32));

    const first = box.seal('Bearer s3cret-töken');
    const second = box.seal('Bearer s3cret-töken');

    expect(first).toMatch(new RegExp(`^v2\\.${box.keyId()}\\.[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    expect(first).not.toContain('s3cret');
    expect(first).not.toBe(second);
    expect(box.open(first)).toBe('Bearer s3cret-töken');
  });

  it('refuses text sealed with another key, altered text and foreign formats, without echoing the secret', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = createSecretBox(randomBytes(32)).seal('other key');
    const own = box.seal('mine');
    const [version, nonce, ciphertext, tag] = own.split('.');
    // The first character always changes (a 1-in-64 ciphertext already starts with "A").
    const altered = [version, nonce, `${ciphertext!.startsWith('A') ? 'B' : 'A'}${ciphertext!.slice(1)}`, tag].join('.');
    expect(altered).not.toBe(own);

    for (const text of [sealed, altered, 'plain text', 'v2.a.b.c']) {
      expect(() => box.open(text)).toThrow(SecretBoxError);
    }
  });

  it('generates FORGE_HOME/secret.key on first use only, readable by its owner alone, and reuses it', async () => {
    const home = await mkdtemp(join(tmpdir(), 'forge-secret-'));
    folders.push(home);
    const file = join(home, 'secret.key');

    const box = installationSecretBox({ secretKey: undefined, home });
    expect(existsSync(file)).toBe(false);
    const sealed = box.seal('token');

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(installationSecretBox({ secretKey: undefined, home }).open(sealed)).toBe('token');
  });

  it('takes FORGE_SECRET_KEY as hex or base64 and rejects a key of the wrong size', async () => {
    const home = await mkdtemp(join(tmpdir(), 'forge-secret-'));
    folders.push(home);
    const key = randomBytes(32);

    const sealed = installationSecretBox({ secretKey: key.toString('hex'), home }).seal('token');

    expect(installationSecretBox({ secretKey: key.toString('base64'), home }).open(sealed)).toBe('token');
    expect(existsSync(join(home, 'secret.key'))).toBe(false);
    expect(() => installationSecretBox({ secretKey: 'too-short', home }).seal('x')).toThrow(ConfigurationError);
  });
});
