import { lookup } from 'node:dns/promises';

/** One address a name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Resolves a host name to every address it has. The guard calls it once per request hop and connects
 * only to the addresses it returned, so a second, different answer (DNS rebinding) is never used.
 */
export type DnsLookup = (hostName: string) => Promise<readonly ResolvedAddress[]>;

/** The operating system's resolver (getaddrinfo: /etc/hosts, then DNS), all addresses in its order. */
export const systemDnsLookup: DnsLookup = async (hostName) => {
  const answers = await lookup(hostName, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};
