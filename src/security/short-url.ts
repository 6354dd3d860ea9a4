import { maskUrlCredentials } from './redaction/index.js';

/**
 * A URL as error messages show it, given as a URL or as text (even text that is not a valid URL, such as
 * a raw `Location` header): the credentials of its user-info part are masked (they may be keys), and the
 * text is cut so a huge query string or data: URL cannot flood a log line.
 */
export function shortUrl(url: URL | string): string {
  const text = maskUrlCredentials(typeof url === 'string' ? url : url.href);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
