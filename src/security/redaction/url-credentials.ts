/**
 * The user-info part of a URL anywhere in a text (`scheme://user:password@`), up to the last `@` before
 * the host, the way URL parsers split it.
 */
const credentialsInUrl = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'<>\\`]*)@/gi;

/** What user-info becomes: neither the name nor the password is shown, since either may be a key. */
export const MASKED_CREDENTIALS = '***';

/**
 * `text` with the credentials of every URL in it masked: `http://user:secret@host/` becomes
 * `http://***@host/`, wherever it stands (an error message, a log line, a JSON string). Text without
 * URLs is returned unchanged.
 */
export function maskUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(credentialsInUrl, (whole, scheme: string, userInfo: string) => (userInfo === '' || userInfo === MASKED_CREDENTIALS ? whole : `${scheme}${MASKED_CREDENTIALS}@`));
}
