import { BlockList, isIPv4, isIPv6 } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * Whether an IP address (unbracketed) reaches only this machine: `127.0.0.0/8`, `::1`, and their
 * IPv4-mapped IPv6 forms (`::ffff:127.0.0.1`). A name, a wildcard (`0.0.0.0`, `::`) or anything else
 * is not loopback.
 */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return loopback.check(address, 'ipv4');
  if (isIPv6(address)) return loopback.check(address, 'ipv6');
  return false;
}

/** Whether an IP address is the "every interface" wildcard (`0.0.0.0`, `::`). */
export function isWildcardAddress(address: string): boolean {
  return (isIPv4(address) && address === '0.0.0.0') || (isIPv6(address) && /^[0:]+$/.test(address));
}
