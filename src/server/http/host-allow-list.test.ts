import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../core/index.js';
import { hostAllowList } from './host-allow-list.js';

describe('hostAllowList', () => {
  it('answers to the bound loopback address and localhost on its port, in any spelling of them', () => {
    const hosts = hostAllowList({ address: '127.0.0.1', port: 8765, requestedHost: '127.0.0.1' });

    for (const host of ['127.0.0.1:8765', 'LOCALHOST:8765', 'localhost:8765', '2130706433:8765']) expect(hosts.allows(host), host).toBe(true);
    for (const host of ['127.0.0.1:8766', 'localhost', 'evil.example:8765', '127.0.0.2:8765', 'localhost.:8765', '[::1]:8765', '']) expect(hosts.allows(host), host).toBe(false);
  });

  it('refuses Host values that only look like ours: userinfo, paths, spaces, several hosts', () => {
    const hosts = hostAllowList({ address: '127.0.0.1', port: 8765, requestedHost: '127.0.0.1' });

    for (const host of ['evil.example@127.0.0.1:8765', '127.0.0.1:8765/x', '127.0.0.1:8765 ', '127.0.0.1:8765,evil.example', '127.0.0.1:8765#', '127.0.0.1:8765\\evil']) {
      expect(hosts.allows(host), host).toBe(false);
    }
  });

  it('knows the spellings of an IPv4-mapped IPv6 bind, which IPv4 clients reach too', () => {
    const hosts = hostAllowList({ address: '::ffff:127.0.0.1', port: 9000, requestedHost: '::ffff:127.0.0.1' });

    for (const host of ['[::ffff:127.0.0.1]:9000', '[::ffff:7f00:1]:9000', '127.0.0.1:9000', 'localhost:9000']) expect(hosts.allows(host), host).toBe(true);
    expect(hosts.allows('evil.example:9000')).toBe(false);
  });

  it('on a wildcard bind, answers to every address of this machine and to nothing else', () => {
    const hosts = hostAllowList({ address: '0.0.0.0', port: 9000, requestedHost: '0.0.0.0' });
    const ipv4 = Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).filter((entry) => entry.family === 'IPv4').map((entry) => entry.address));

    for (const address of ['127.0.0.1', ...ipv4]) expect(hosts.allows(`${address}:9000`), address).toBe(true);
    expect(hosts.allows('0.0.0.0:9000')).toBe(false);
    expect(hosts.allows('evil.example:9000')).toBe(false);
  });

  it('takes a bare --allowed-host name on any port and a name:port on that port only', () => {
    const hosts = hostAllowList({ address: '127.0.0.1', port: 8765, requestedHost: '127.0.0.1' }, ['forge.example.org', 'api.example.org:8443', '[::1]:8443']);

    for (const host of ['forge.example.org', 'forge.example.org:443', 'FORGE.example.org:8765', 'api.example.org:8443', '[::1]:8443']) expect(hosts.allows(host), host).toBe(true);
    for (const host of ['api.example.org', 'api.example.org:443', 'sub.forge.example.org', 'forge.example.org.evil.example', '[::1]:8765']) expect(hosts.allows(host), host).toBe(false);
  });

  it('judges an origin host with its scheme default port', () => {
    const hosts = hostAllowList({ address: '127.0.0.1', port: 443, requestedHost: '127.0.0.1' });

    expect(hosts.allows('127.0.0.1', '443')).toBe(true);
    expect(hosts.allows('127.0.0.1', '80')).toBe(false);
  });

  it('refuses a malformed --allowed-host entry by name', () => {
    const attempt = () => hostAllowList({ address: '127.0.0.1', port: 1, requestedHost: '127.0.0.1' }, ['user@forge.example.org']);

    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(/--allowed-host: "user@forge.example.org"/);
  });
});
