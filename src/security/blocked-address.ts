import { formatIpv4, matchesPrefix, parseIpAddress } from './ip-address.js';

interface BlockedRange {
  readonly network: Uint8Array;
  readonly prefixLength: number;
  /** Completes the sentence "<address> is …". */
  readonly description: string;
}

function range(cidr: string, description: string): BlockedRange {
  const [network = '', prefixLength = ''] = cidr.split('/');
  const parsed = parseIpAddress(network);
  if (parsed === undefined) throw new Error(`Bad range in the SSRF guard's table: ${cidr}`);
  return { network: parsed.bytes, prefixLength: Number(prefixLength), description };
}

// Order matters: the first match names the reason, so specific entries precede the ranges holding them.
const blockedIpv4Ranges: readonly BlockedRange[] = [
  range('169.254.169.254/32', 'a cloud metadata address (AWS, GCP, Azure and others serve instance credentials there)'),
  range('100.100.100.200/32', 'a cloud metadata address (Alibaba Cloud)'),
  range('168.63.129.16/32', 'a cloud platform address (Azure WireServer)'),
  range('0.0.0.0/8', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', 'a private (RFC 1918) address'),
  range('100.64.0.0/10', 'a carrier-grade NAT (RFC 6598) address'),
  range('127.0.0.0/8', 'a loopback address'),
  range('169.254.0.0/16', 'a link-local address'),
  range('172.16.0.0/12', 'a private (RFC 1918) address'),
  range('192.0.0.0/24', 'a reserved IETF protocol assignment address'),
  range('192.0.2.0/24', 'a reserved documentation address (TEST-NET-1)'),
  range('192.88.99.0/24', 'a reserved 6to4 relay anycast address'),
  range('192.168.0.0/16', 'a private (RFC 1918) address'),
  range('198.18.0.0/15', 'a benchmarking (RFC 2544) address'),
  range('198.51.100.0/24', 'a reserved documentation address (TEST-NET-2)'),
  range('203.0.113.0/24', 'a reserved documentation address (TEST-NET-3)'),
  range('224.0.0.0/4', 'a multicast address'),
  range('255.255.255.255/32', 'the broadcast address'),
  range('240.0.0.0/4', 'a reserved (240.0.0.0/4) address'),
];

const blockedIpv6Ranges: readonly BlockedRange[] = [
  range('::/128', 'the unspecified address'),
  range('::1/128', 'a loopback address'),
  range('fd00:ec2::254/128', 'a cloud metadata address (AWS)'),
  range('64:ff9b:1::/48', 'a local-use NAT64 (RFC 8215) address'),
  range('fc00::/7', 'a unique local (ULA) address'),
  range('fe80::/10', 'a link-local address'),
  range('fec0::/10', 'a deprecated site-local address'),
  range('ff00::/8', 'a multicast address'),
  range('100::/64', 'a discard-only (RFC 6666) address'),
  range('2001:db8::/32', 'a reserved documentation address'),
  range('3fff::/20', 'a reserved documentation address'),
  range('2001:2::/48', 'a benchmarking (RFC 5180) address'),
];

/** IPv6 forms that carry an IPv4 address: where it sits and how to read it out. */
interface EmbeddingForm {
  readonly prefix: BlockedRange;
  readonly name: string;
  readonly embedded: (bytes: Uint8Array) => Uint8Array[];
}

const lastFourBytes = (bytes: Uint8Array): Uint8Array[] => [bytes.subarray(12, 16)];

const embeddingForms: readonly EmbeddingForm[] = [
  { prefix: range('::ffff:0:0/96', ''), name: 'an IPv4-mapped IPv6 address', embedded: lastFourBytes },
  { prefix: range('::ffff:0:0:0/96', ''), name: 'an IPv4-translated IPv6 address', embedded: lastFourBytes },
  { prefix: range('64:ff9b::/96', ''), name: 'a NAT64 IPv6 address', embedded: lastFourBytes },
  { prefix: range('2002::/16', ''), name: 'a 6to4 IPv6 address', embedded: (bytes) => [bytes.subarray(2, 6)] },
  {
    prefix: range('2001::/32', ''),
    name: 'a Teredo IPv6 address',
    // Teredo carries the server in bits 32-63 and the client, bit-inverted, in the last 32 bits.
    embedded: (bytes) => [bytes.subarray(4, 8), bytes.subarray(12, 16).map((byte) => byte ^ 0xff)],
  },
];

const ipv4CompatiblePrefix = range('::/96', '');
const globalUnicastPrefix = range('2000::/3', '');

/**
 * Why the SSRF guard refuses to connect to `address`, completing the sentence "<address> is …"
 * (e.g. "a loopback address"); `undefined` when the address is public. Text that is not an IP address
 * is refused too, because the guard cannot judge it.
 */
export function describeBlockedAddress(address: string): string | undefined {
  const parsed = parseIpAddress(address);
  if (parsed === undefined) return 'not a valid IP address';
  if (parsed.version === 4) return describeBlockedIpv4(parsed.bytes);
  return describeBlockedIpv6(parsed.bytes);
}

function describeBlockedIpv4(bytes: Uint8Array): string | undefined {
  return firstMatch(blockedIpv4Ranges, bytes)?.description;
}

function describeBlockedIpv6(bytes: Uint8Array): string | undefined {
  for (const form of embeddingForms) {
    if (!matchesPrefix(bytes, form.prefix.network, form.prefix.prefixLength)) continue;
    for (const embedded of form.embedded(bytes)) {
      const reason = describeBlockedIpv4(embedded);
      if (reason !== undefined) return `${form.name} embedding ${formatIpv4(embedded)}, ${reason}`;
    }
    return undefined;
  }
  const listed = firstMatch(blockedIpv6Ranges, bytes);
  if (listed !== undefined) return listed.description;
  if (matchesPrefix(bytes, ipv4CompatiblePrefix.network, ipv4CompatiblePrefix.prefixLength)) {
    const embedded = bytes.subarray(12, 16);
    const reason = describeBlockedIpv4(embedded);
    return `a deprecated IPv4-compatible IPv6 address embedding ${formatIpv4(embedded)}${reason === undefined ? '' : `, ${reason}`}`;
  }
  if (!matchesPrefix(bytes, globalUnicastPrefix.network, globalUnicastPrefix.prefixLength)) {
    return 'not a global unicast IPv6 address (outside 2000::/3)';
  }
  return undefined;
}

function firstMatch(ranges: readonly BlockedRange[], bytes: Uint8Array): BlockedRange | undefined {
  return ranges.find((candidate) => matchesPrefix(bytes, candidate.network, candidate.prefixLength));
}
