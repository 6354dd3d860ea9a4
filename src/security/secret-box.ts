import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError, ForgeError } from '../core/index.js';

/**
 * Seals small secrets (MCP header values, later provider keys) for storage at rest with AES-256-GCM:
 * a fresh 12-byte nonce per seal, and the GCM tag so that a changed or foreign ciphertext is refused
 * rather than opened to garbage. Sealed text is `v2.<key id>.<nonce>.<ciphertext>.<tag>` in base64url
 * (`v1.<nonce>.<ciphertext>.<tag>`, without the key id, still opens). The key id is the first 8 hex
 * digits of the key's sha256: it names which key sealed a secret without revealing the key.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  /** The id of the key this box seals with. */
  keyId(): string;
  /** Throws `SecretBoxError` when the text was sealed with another key or altered. */
  open(sealed: string): string;
  /** A 32-byte key for one purpose (`approvals`), derived from this box's key with HKDF-SHA256; the box's key itself never leaves it. */
  derive(purpose: string): Buffer;
}

/** A sealed secret could not be opened: another key sealed it, or it was altered. */
export class SecretBoxError extends ForgeError {
  constructor(message: string) {
    super({
      name: 'SecretBoxError',
      message,
      hint: 'Stored secrets open only with the key that sealed them: keep FORGE_SECRET_KEY (or FORGE_HOME/secret.key) unchanged, or add the secret again.',
    });
  }
}

const keyBytes = 32;
const nonceBytes = 12;
const version = 'v2';

/** The id of a key: the first 8 hex digits of its sha256. */
export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** The key id a sealed text names; null for the older format without one. */
export function sealedKeyId(sealed: string): string | null {
  const [sealedVersion, keyId] = sealed.split('.');
  return sealedVersion === 'v2' && keyId !== undefined ? keyId : null;
}

/** A secret box over a 32-byte key. */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== keyBytes) throw new ConfigurationError('FORGE_SECRET_KEY', `must be ${keyBytes} bytes, got ${key.length}.`);
  const id = secretKeyId(key);
  return {
    keyId: () => id,
    derive: (purpose) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `forge ${purpose}`, keyBytes)),
    seal(plaintext) {
      const nonce = randomBytes(nonceBytes);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [version, id, ...[nonce, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
    },
    open(sealed) {
      const parts = sealed.split('.');
      if (parts[0] === 'v2') {
        if (parts.length !== 5) throw new SecretBoxError('The stored secret is not in the sealed format this Forge writes.');
        if (parts[1] !== id) throw new SecretBoxError(`A stored secret was sealed with key ${parts[1]}, and the current key is ${id}.`);
        parts.splice(0, 2, 'v1');
      }
      const [sealedVersion, nonce, ciphertext, tag, ...rest] = parts;
      if (sealedVersion !== 'v1' || nonce === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) {
        throw new SecretBoxError('The stored secret is not in the sealed format this Forge writes.');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // The cause is deliberately dropped: nothing about a secret should travel in an error.
        throw new SecretBoxError('A stored secret could not be opened: it was sealed with another key or altered.');
      }
    },
  };
}

/**
 * The secret box of a Forge installation. The key is `FORGE_SECRET_KEY` (32 bytes as 64 hex digits or
 * base64) when set; otherwise `FORGE_HOME/secret.key`, generated on first use and written with mode
 * 0600 so only its owner can read it. The key is read (or made) on the first seal or open, so an
 * installation that never stores a secret never gets a key file.
 */
export function installationSecretBox(options: { secretKey: string | undefined; home: string }): SecretBox {
  let box: SecretBox | undefined;
  const current = (): SecretBox => (box ??= createSecretBox(installationKey(options)));
  return { seal: (plaintext) => current().seal(plaintext), open: (sealed) => current().open(sealed), keyId: () => current().keyId(), derive: (purpose) => current().derive(purpose) };
}

/** The key file of an installation: `FORGE_HOME/secret.key`. */
export function secretKeyFile(home: string): string {
  return join(home, 'secret.key');
}

/** A fresh secret key as 64 hex digits, and its box. */
export function newSecretKey(): { text: string; box: SecretBox } {
  const key = randomBytes(keyBytes);
  return { text: key.toString('hex'), box: createSecretBox(key) };
}

/** The box of a key written as text (64 hex digits or base64); `ConfigurationError` for anything else. */
export function secretBoxFromText(text: string): SecretBox {
  return createSecretBox(keyFromText(text.trim()));
}

/**
 * Where the installation's secret key is, without making one: `FORGE_SECRET_KEY`, the key file, or
 * nowhere yet (the first seal generates the file).
 */
export function secretKeySource(options: { secretKey: string | undefined; home: string }): 'environment' | 'file' | 'missing' {
  if (options.secretKey !== undefined && options.secretKey.trim() !== '') return 'environment';
  return existsSync(join(options.home, 'secret.key')) ? 'file' : 'missing';
}

function installationKey(options: { secretKey: string | undefined; home: string }): Buffer {
  if (options.secretKey !== undefined && options.secretKey.trim() !== '') return keyFromText(options.secretKey.trim());
  const file = join(options.home, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      // `wx` never overwrites a key another process wrote first; that key is then read below.
      writeFileSync(file, `${randomBytes(keyBytes).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
  }
  return keyFromText(readFileSync(file, 'utf8').trim());
}

function keyFromText(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== keyBytes) {
    throw new ConfigurationError('FORGE_SECRET_KEY', `must be ${keyBytes} bytes written as 64 hex digits or base64.`, 'Generate one with: openssl rand -hex 32');
  }
  return key;
}
