import { describe, expect, it } from 'vitest';
import { ConfigurationError, ForgeError } from '../core/index.js';
import { parseAllowHosts } from './allow-hosts.js';
import { guardedFetchOptionsFromEnv } from './guarded-fetch-options-from-env.js';
import { parseResolveEntries } from './resolve-entries.js';

function configurationErrorOf(parse: () => unknown): ConfigurationError {
  try {
    parse();
  } catch (error) {
    if (ForgeError.isInstance(error) && error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

describe('parseAllowHosts', () => {
  it('normalizes hosts the way URLs do and ignores blank entries', () => {
    expect(parseAllowHosts(' Docs.Example.TEST:443 , 127.1:8080,,0x7f000001:81,[::1]:9000, searx.lan.:80 ')).toEqual([
      'docs.example.test:443',
      '127.0.0.1:8080',
      '127.0.0.1:81',
      '[::1]:9000',
      'searx.lan:80',
    ]);
    expect(parseAllowHosts('')).toEqual([]);
  });

  it.each(['example.com', 'example.com:', ':80', 'example.com:0', 'example.com:65536', 'http://example.com:80', '::1:80', 'user@example.com:80', 'exa mple.com:80'])(
    'rejects %j naming the entry and the format',
    (entry) => {
      const error = configurationErrorOf(() => parseAllowHosts(`ok.example:80,${entry}`));
      expect(error.variable).toBe('FORGE_ALLOW_HOSTS');
      expect(error.message).toContain(`"${entry}"`);
      expect(error.hint).toContain('host:port');
    },
  );
});

describe('parseResolveEntries', () => {
  it('reads host:port:address entries, with bracketed or bare IPv6 addresses', () => {
    expect(parseResolveEntries('Docs.Example.test:443:127.0.0.1, b.example:80:[::1],c.example:8080:::1,b.example:80:10.0.0.2')).toEqual([
      { host: 'docs.example.test', port: 443, address: '127.0.0.1' },
      { host: 'b.example', port: 80, address: '::1' },
      { host: 'c.example', port: 8080, address: '::1' },
      { host: 'b.example', port: 80, address: '10.0.0.2' },
    ]);
    expect(parseResolveEntries(' ')).toEqual([]);
  });

  it.each(['a.example:443', 'a.example:443:', 'a.example:https:1.2.3.4', 'a.example:443:not-an-ip', 'a.example:443:127.1', ':443:1.2.3.4', 'a.example:99999:1.2.3.4'])(
    'rejects %j naming the entry and the format',
    (entry) => {
      const error = configurationErrorOf(() => parseResolveEntries(entry));
      expect(error.variable).toBe('FORGE_RESOLVE');
      expect(error.message).toContain(`"${entry}"`);
      expect(error.hint).toContain('host:port:address');
    },
  );
});

describe('guardedFetchOptionsFromEnv', () => {
  it('reads both variables and defaults to a closed guard', () => {
    expect(guardedFetchOptionsFromEnv({})).toEqual({ allowHosts: [], resolve: [] });
    expect(guardedFetchOptionsFromEnv({ FORGE_ALLOW_HOSTS: 'a.test:80', FORGE_RESOLVE: 'a.test:80:127.0.0.1' })).toEqual({
      allowHosts: ['a.test:80'],
      resolve: [{ host: 'a.test', port: 80, address: '127.0.0.1' }],
    });
  });
});
