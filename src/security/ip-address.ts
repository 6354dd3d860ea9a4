import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its raw bytes: 4 for IPv4, 16 for IPv6. */
export type IpAddress = { readonly version: 4; readonly bytes: Uint8Array } | { readonly version: 6; readonly bytes: Uint8Array };

/**
 * Parses a canonical dotted-quad IPv4 or an IPv6 address (brackets and a `%zone` suffix are tolerated).
 * Returns `undefined` for anything else: the odd IPv4 spellings (`127.1`, `0x7f000001`) are normalized
 * by the WHATWG URL parser before they reach the guard, and DNS only ever answers canonical forms.
 */
export function parseIpAddress(text: string): IpAddress | undefined {
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const withoutZone = unbracketed.split('%')[0] ?? '';
  if (isIPv4(withoutZone)) return { version: 4, bytes: Uint8Array.from(withoutZone.split('.').map(Number)) };
  if (isIPv6(withoutZone)) return { version: 6, bytes: ipv6Bytes(withoutZone) };
  return undefined;
}

/** Dotted-quad text of four IPv4 bytes. */
export function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}

/** Whether `bytes` starts with the first `prefixLength` bits of `network`. */
export function matchesPrefix(bytes: Uint8Array, network: Uint8Array, prefixLength: number): boolean {
  const fullBytes = Math.floor(prefixLength / 8);
  for (let index = 0; index < fullBytes; index++) {
    if (bytes[index] !== network[index]) return false;
  }
  const remainingBits = prefixLength % 8;
  if (remainingBits === 0) return true;
  const mask = (0xff << (8 - remainingBits)) & 0xff;
  return ((bytes[fullBytes] ?? 0) & mask) === ((network[fullBytes] ?? 0) & mask);
}

/** Expands a valid IPv6 text (possibly with `::` and a dotted IPv4 tail) into 16 bytes. */
function ipv6Bytes(text: string): Uint8Array {
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...new Array<number>(missing).fill(0), ...tailGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** The 16-bit groups of one side of `::`; a dotted IPv4 part counts as two groups. */
function groupsOf(part: string): number[] {
  if (part === '') return [];
  return part.split(':').flatMap((group) => {
    if (!group.includes('.')) return [Number.parseInt(group, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}
