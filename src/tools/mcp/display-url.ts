import { maskUrlCredentials } from '../../security/redaction/index.js';

/**
 * A URL as it may be shown or logged: its user-info (name and password) is masked as `***` and query
 * values are replaced by `…`, since people put tokens in all of them. Text that is not a URL (a stdio
 * command line, a malformed endpoint) only has the credentials of any URL in it masked.
 */
export function displayUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return maskUrlCredentials(text);
  }
  for (const key of [...new Set(url.searchParams.keys())]) url.searchParams.set(key, '…');
  return maskUrlCredentials(url.href);
}
