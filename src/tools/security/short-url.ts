/**
 * A URL as error messages show it: credentials in the user-info part are masked (they may be keys),
 * and the text is cut so a huge query string or data: URL cannot flood a log line.
 */
export function shortUrl(url: URL | string): string {
  let text = typeof url === 'string' ? url : url.href;
  if (typeof url !== 'string' && (url.username !== '' || url.password !== '')) {
    const masked = new URL(url.href);
    masked.username = '***';
    masked.password = '';
    text = masked.href;
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
