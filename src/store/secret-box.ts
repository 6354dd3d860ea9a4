import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError, ForgeError } from '../core/index.js';

/**
 * Seals small secrets (MCP header values, later provider keys) for storage at rest with AES-256-GCM:
 * a fresh 12-byte nonce per seal, and the GCM tag so that a changed or foreign ciphertext is refused
 * rather than opened to garbage. Sealed text is `v1.<nonce>.<ciphertext>.<tag>` in base64url.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  /** Throws `SecretBoxError` when the text was sealed with another key or altered. */
  open(sealed: string): string;
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
const version = 'v1';

/** A secret box over a 32-byte key. */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== keyBytes) throw new ConfigurationError('FORGE_SECRET_KEY', `must be ${keyBytes} bytes, got ${key.length}.`);
  return {
    seal(plaintext) {
      const nonce = randomBytes(nonceBytes);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [version, nonce, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [sealedVersion, nonce, ciphertext, tag, ...rest] = sealed.split('.');
      if (sealedVersion !== version || nonce === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) {
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
  return { seal: (plaintext) => current().seal(plaintext), open: (sealed) => current().open(sealed) };
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
