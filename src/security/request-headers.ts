// Headers the guard owns. Host comes from the vetted URL: a caller's Host would pick another virtual
// host behind an allowed address. Message framing (Content-Length, Transfer-Encoding, Expect) follows
// the body the guard actually sends, so no caller value can disagree with it. Hop-by-hop headers
// describe the guard's own connection. Accept-Encoding is the guard's because it reads bodies as sent.
const guardOwnedHeaders: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'expect',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'accept-encoding',
]);

/**
 * The headers of a first request hop: `defaults` (lower-case names), overridden by the caller's
 * headers under lower-case names, less every header the guard owns (see above), which are dropped
 * whatever their case. The result has no prototype, so no header name can reach `Object.prototype`.
 */
export function requestHeaders(defaults: Readonly<Record<string, string>>, callerHeaders: Readonly<Record<string, string>> = {}): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(defaults)) headers[name] = value;
  for (const [name, value] of Object.entries(callerHeaders)) {
    const lowerCase = name.toLowerCase();
    if (!guardOwnedHeaders.has(lowerCase)) headers[lowerCase] = value;
  }
  return headers;
}
