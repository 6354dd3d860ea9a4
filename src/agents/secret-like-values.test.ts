import { describe, expect, it } from 'vitest';
import { findSecretLikeValues, redactSecretLikeValues } from './secret-like-values.js';

// Built at run time, so no file of the repository holds anything shaped like a real key.
const keys = {
  openai: 'sk-' + 'proj-' + 'Q7xT2mK9vL4pR8sW1nB6'.repeat(2),
  anthropic: 'sk-' + 'ant-api03-' + 'z9Y8x7W6v5U4t3S2r1Q0'.repeat(2),
  github: 'gh' + 'p_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  githubFineGrained: 'github' + '_pat_' + '11ABCDEFG0' + 'x'.repeat(40),
  slack: 'xo' + 'xb-' + '123456789012-abcdefABCDEF',
  aws: 'AK' + 'IA' + 'QWERTYUIOP123456',
  google: 'AI' + 'za' + 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q',
  jwt: 'ey' + 'JhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  base64: 'dGhpcyBpcyBhIHNlY3JldCBrZXk' + 'gZm9yIHRlc3Rpbmc9PT1xWjk4',
  privateKey: '-----BEGIN ' + 'RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
};

describe('secret-like values', () => {
  it('finds provider keys, tokens, private keys, URL credentials and long random strings, by kind and path', () => {
    const value = {
      description: `Use ${keys.openai} for calls.`,
      tags: ['ok', keys.github],
      model: { slug: 'openai-compatible:llama@http://admin:hunter2@10.0.0.5:8000/v1' },
      nested: [{ deep: { a: keys.anthropic, b: keys.slack, c: keys.aws, d: keys.google, e: keys.jwt, f: keys.base64, g: keys.privateKey, h: keys.githubFineGrained } }],
      tools: { [keys.openai]: 'allowed' },
    };
    expect(findSecretLikeValues(value)).toEqual([
      { segments: ['description'], kind: 'an API key (sk-…)' },
      { segments: ['model', 'slug'], kind: 'a URL with a user name or password' },
      { segments: ['nested', 0, 'deep', 'a'], kind: 'an API key (sk-…)' },
      { segments: ['nested', 0, 'deep', 'b'], kind: 'a Slack token' },
      { segments: ['nested', 0, 'deep', 'c'], kind: 'an AWS access key' },
      { segments: ['nested', 0, 'deep', 'd'], kind: 'a Google API key' },
      { segments: ['nested', 0, 'deep', 'e'], kind: 'a JSON Web Token' },
      { segments: ['nested', 0, 'deep', 'f'], kind: 'a long random string (a key?)' },
      { segments: ['nested', 0, 'deep', 'g'], kind: 'a private key' },
      { segments: ['nested', 0, 'deep', 'h'], kind: 'a GitHub token' },
      { segments: ['tags', 1], kind: 'a GitHub token' },
      { segments: ['tools', keys.openai], kind: 'an API key (sk-…) as a key' },
    ]);
  });

  it('leaves ordinary prompt text alone: words, camelCase, paths, hex digests, UUIDs, URLs without credentials', () => {
    const ordinary = [
      'Research the topic with sk-learn-compatible-pipeline-configuration in mind.',
      'SummarizeTheReleaseNotesOfVersion2AndListTheBreakingChangesFirst',
      '/Users/JohnSmith/Projects/MyApplication2/src/components/Header.tsx',
      'commit 4f2a9c1e8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f4f2a9c1e8b7d6e5f4a3b2c1d',
      'id 123e4567-e89b-12d3-a456-426614174000',
      'https://github.com/owner/repo/blob/main/docs/CONTRIBUTING.md?plain=1#L10',
      'mail me at someone@example.com or https://example.com/@handle',
      'ask-ghp_ then risk-management, task-sk-style',
    ];
    expect(findSecretLikeValues({ ordinary })).toEqual([]);
  });

  it('redacts what it finds, keys too, and keeps everything else', () => {
    const redacted = redactSecretLikeValues({ prompt: `Key: ${keys.openai}. Token ${keys.github}!`, url: 'http://user:pw@host.example/x', plain: 'nothing here', count: 3, tools: { [keys.aws]: 'allowed' } });
    expect(redacted).toEqual({ prompt: 'Key: [redacted]. Token [redacted]!', url: 'http://***@host.example/x', plain: 'nothing here', count: 3, tools: { '[redacted]': 'allowed' } });
    expect(findSecretLikeValues(redacted)).toEqual([]);
  });
});
