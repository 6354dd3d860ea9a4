/**
 * A URL as it may be shown or logged: a password and query values are replaced by `…`, since people
 * put tokens there too. Text that is not a URL (a stdio command line) is returned as is.
 */
export function displayUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.password !== '') url.password = '…';
  for (const key of [...new Set(url.searchParams.keys())]) url.searchParams.set(key, '…');
  return url.href;
}
