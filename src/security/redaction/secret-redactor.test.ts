import { describe, expect, it } from 'vitest';
import { secretsFromEnvironment } from './environment-secrets.js';
import { SecretRedactor } from './secret-redactor.js';
import { maskUrlCredentials } from './url-credentials.js';

describe('SecretRedactor', () => {
  it('redacts a secret in the forms it is echoed in: whole, as a Bearer credential, URL-encoded, JSON-escaped', () => {
    const redactor = new SecretRedactor(['Bearer tok/en+with"quote']);

    expect(redactor.redactText('got Authorization: Bearer tok/en+with"quote')).toBe('got Authorization: [redacted]');
    expect(redactor.redactText('token tok/en+with"quote was refused')).toBe('token [redacted] was refused');
    expect(redactor.redactText('?key=tok%2Fen%2Bwith%22quote')).toBe('?key=[redacted]');
    expect(redactor.redactText('{"auth":"tok/en+with\\"quote"}')).toBe('{"auth":"[redacted]"}');
  });

  it('redacts the password of a Basic credential, and learns secrets added later', () => {
    const redactor = new SecretRedactor();
    expect(redactor.redactText('pw hunter2-but-longer')).toBe('pw hunter2-but-longer');

    redactor.add(`Basic ${Buffer.from('alice:hunter2-but-longer').toString('base64')}`);

    expect(redactor.redactText('pw hunter2-but-longer')).toBe('pw [redacted]');
  });

  it('ignores values too short to be keys, so ordinary words survive', () => {
    const redactor = new SecretRedactor(['true', 'abc1234']);

    expect(redactor.redactText('true abc1234')).toBe('true abc1234');
  });

  it('redacts every string of a value, keys and other types untouched, and masks URL credentials without being told', () => {
    const redactor = new SecretRedactor(['sk-live-0123456789']);
    const event = { type: 'tool-error', seq: 3, ok: false, error: { message: 'echo sk-live-0123456789' }, list: ['sk-live-0123456789', 7, null], url: 'https://bob:pw@example.org/' };

    expect(redactor.redactValue(event)).toEqual({ type: 'tool-error', seq: 3, ok: false, error: { message: 'echo [redacted]' }, list: ['[redacted]', 7, null], url: 'https://***@example.org/' });
    expect(event.error.message).toBe('echo sk-live-0123456789');
  });
});

describe('maskUrlCredentials', () => {
  it('masks user and password of every URL in a text, up to the last @ of the authority', () => {
    expect(maskUrlCredentials('from http://u:p@ss@a.example/x to postgres://admin:s3cret@db:5432/forge and ftp://anon@b.example')).toBe(
      'from http://***@a.example/x to postgres://***@db:5432/forge and ftp://***@b.example',
    );
  });

  it('leaves text without URL credentials alone', () => {
    const text = 'mail bob@example.org about https://example.org/a@b and http://example.org?to=x@y';
    expect(maskUrlCredentials(text)).toBe('mail bob@example.org about https://example.org/a@b and http://example.org?to=x@y');
  });
});

describe('secretsFromEnvironment', () => {
  it('takes the vendor keys, variables named like secrets and the passwords of URL variables', () => {
    const secrets = secretsFromEnvironment({
      OPENAI_API_KEY: 'sk-openai-value',
      TAVILY_API_KEY: 'tvly-value-123',
      FORGE_SECRET_KEY: 'forge-secret-key-value',
      GITHUB_TOKEN: 'ghp_value_12345',
      PGPASSWORD: 'pg-password-value',
      FORGE_DATABASE_URL: 'postgres://forge:db%40password@127.0.0.1:5432/forge',
      FORGE_HOME: '/home/me/.forge',
      FORGE_HISTORY_TOKENS: '4000',
      EMPTY_API_KEY: '  ',
    });

    expect(secrets.sort()).toEqual(['db@password', 'forge-secret-key-value', 'ghp_value_12345', 'pg-password-value', 'sk-openai-value', 'tvly-value-123']);
  });
});
