/** How a response body can be shown to a model: converted from HTML, as text, or only described. */
export type ContentKind = 'html' | 'text' | 'binary';

const textualApplicationTypes = /^application\/(json|[\w.+-]+\+json|x-ndjson|xml|[\w.+-]+\+xml|javascript|ecmascript|x-javascript|yaml|x-yaml|toml|csv|graphql|sql)$/;

/** The media type of a Content-Type header, lower case and without parameters; '' when missing. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Classifies a body by its declared media type (anything not HTML or textual, octet-stream included,
 * is binary). An untyped body is sniffed as browsers do: NUL bytes or invalid UTF-8 mean binary, an
 * HTML opening tag means HTML, anything else is text.
 */
export function classifyContent(contentType: string | undefined, body: Uint8Array): ContentKind {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType.startsWith('text/') || textualApplicationTypes.test(mediaType)) return 'text';
  if (mediaType !== '') return 'binary';
  return sniffUntyped(body);
}

function sniffUntyped(body: Uint8Array): ContentKind {
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(withoutCutCharacter(head, body.length));
    return /^\s*(<!doctype html|<html|<head|<body)/i.test(text) ? 'html' : 'text';
  } catch {
    return 'binary';
  }
}

/** Drops a UTF-8 sequence cut off by the sniffing window, so a valid text does not read as invalid. */
function withoutCutCharacter(head: Uint8Array, fullLength: number): Uint8Array {
  if (head.length === fullLength) return head;
  for (let back = 1; back <= 3 && back <= head.length; back++) {
    const byte = head[head.length - back] ?? 0;
    if ((byte & 0xc0) === 0xc0) return head.subarray(0, head.length - back);
    if ((byte & 0xc0) !== 0x80) return head;
  }
  return head;
}

/** What a model is told instead of a binary body it could not read. */
export function describeBinaryBody(contentType: string | undefined, byteCount: number, truncated: boolean): string {
  const mediaType = mediaTypeOf(contentType) || 'an undeclared type';
  const size = `${byteCount.toLocaleString('en-US')} bytes${truncated ? ' or more (cut at the byte cap)' : ''}`;
  return `Binary content (${mediaType}, ${size}) was not converted to text.`;
}
