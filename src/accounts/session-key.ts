import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../core/index.js';

/**
 * The key that signs access tokens (HS256) and CSRF tokens: `FORGE_SESSION_KEY` (at least 32 bytes as
 * hex or base64; servers that share sign-ins share it), else `FORGE_HOME/session.key`, generated on
 * first use with mode 0600. Changing it signs everyone out.
 */
export function loadSessionKey(options: { sessionKey: string | undefined; home: string }): Uint8Array {
  const text = options.sessionKey?.trim();
  if (text !== undefined && text !== '') return keyFromText(text);
  const file = join(options.home, 'session.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
  }
  return keyFromText(readFileSync(file, 'utf8').trim());
}

function keyFromText(text: string): Uint8Array {
  const key = /^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length < 32) throw new ConfigurationError('FORGE_SESSION_KEY', 'must be at least 32 bytes, written as hex or base64.', 'Generate one with: openssl rand -hex 32');
  return new Uint8Array(key);
}
