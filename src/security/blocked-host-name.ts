/** Names that reach instance metadata services without their address being known up front. */
const metadataHostNames = new Set(['metadata.google.internal', 'metadata.goog']);

/**
 * Why the SSRF guard refuses a host name before any DNS lookup, completing "<name> is …"; `undefined`
 * when the name is judged by the addresses it resolves to. Expects a lower-case name without a trailing dot.
 */
export function describeBlockedHostName(hostName: string): string | undefined {
  if (metadataHostNames.has(hostName)) return 'a cloud metadata host name';
  // RFC 6761 reserves localhost and its subdomains for this machine, whatever a resolver says.
  if (hostName === 'localhost' || hostName.endsWith('.localhost')) return 'a loopback host name';
  return undefined;
}
