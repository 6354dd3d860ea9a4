/** A host and port as the guard compares them: the host normalized the way URLs normalize it. */
export interface HostPort {
  /** Lower-case name without a trailing dot, dotted-quad IPv4, or bracketed compressed IPv6. */
  readonly host: string;
  readonly port: number;
}

const hostPortPattern = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/;

/**
 * Reads `host:port` (IPv6 in brackets). The host goes through the WHATWG URL parser, so `127.1`,
 * `0x7f000001` and `LOCALHOST.` compare equal to what a request URL for them is normalized to.
 * Returns `undefined` when the text is not a single host:port pair.
 */
export function parseHostPort(text: string): HostPort | undefined {
  const match = hostPortPattern.exec(text);
  if (match === null) return undefined;
  const [, rawHost = '', rawPort = ''] = match;
  const port = Number(rawPort);
  if (port < 1 || port > 65_535) return undefined;
  const host = normalizeHost(rawHost);
  return host === undefined ? undefined : { host, port };
}

/** The host:port a URL connects to, with the scheme's default port filled in. */
export function hostPortOfUrl(url: URL): HostPort {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { host: stripTrailingDot(url.hostname), port };
}

/** The key used to look a host:port up in the allow list and the pins. */
export function hostPortKey(hostPort: HostPort): string {
  return `${hostPort.host}:${hostPort.port}`;
}

function normalizeHost(rawHost: string): string | undefined {
  let url: URL;
  try {
    url = new URL(`http://${rawHost}/`);
  } catch {
    return undefined;
  }
  // Reject anything the URL parser read as more than a host (user info, a path, a query).
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.port !== '') {
    return undefined;
  }
  if (url.hostname === '') return undefined;
  return stripTrailingDot(url.hostname);
}

function stripTrailingDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
