import type { LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { loadUndici } from './load-undici.js';
import type { VettedDestination } from './vet-destination.js';

/**
 * An undici dispatcher that can only connect to the vetted addresses: its socket-level lookup answers
 * from the vetting result instead of asking DNS again, which closes the gap between "the address we
 * checked" and "the address we connected to" (DNS rebinding). IP literals never reach a lookup, and
 * were vetted as themselves. One agent serves one request hop and is destroyed after it.
 */
export async function createPinnedAgent(destination: VettedDestination): Promise<Agent> {
  const { Agent: PinnedAgent } = await loadUndici();
  const lookup: LookupFunction = (hostName, options, callback) => {
    if (hostName !== destination.connectHost) {
      callback(Object.assign(new Error(`Refusing to resolve ${hostName}: this connection was vetted for ${destination.connectHost}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const candidates = destination.addresses.filter((address) => family === undefined || address.family === family);
    if (candidates.length === 0) {
      callback(Object.assign(new Error(`No vetted IPv${family} address for ${hostName}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    if (options.all === true) {
      callback(null, candidates.map((candidate) => ({ address: candidate.address, family: candidate.family })));
      return;
    }
    const [first] = candidates as [(typeof candidates)[number]];
    callback(null, first.address, first.family);
  };
  return new PinnedAgent({ connect: { lookup } });
}
