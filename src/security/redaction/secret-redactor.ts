import { maskUrlCredentials } from './url-credentials.js';

/** What a secret becomes wherever it is written or shown. */
export const REDACTED = '[redacted]';

/** Shorter values are not redacted: they would take ordinary words out of every text. */
export const MINIMUM_SECRET_LENGTH = 8;

/** `Authorization`-style values: a scheme word, then the credential itself. */
const schemeAndCredential = /^(bearer|basic|token|bot|apikey|key)\s+(\S+)$/i;

/**
 * The one place that takes secrets out of what Forge writes down or prints. It knows the secret values
 * of its process (the environment's keys, MCP header values once they are opened, provider keys) and
 * replaces every occurrence with `[redacted]`; it also masks the credentials of every URL (see
 * `maskUrlCredentials`), known or not. The run's event bus passes every event through it before anyone
 * sees the event (run log, store, terminal, API), and the CLI passes everything it prints through it.
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /**
   * Redacts `secret` from now on, in the forms it shows up in: as given, trimmed, URL-encoded and
   * JSON-escaped, and for an `Authorization`-style value (`Bearer …`, `Basic …`) the credential alone
   * (a Basic credential's password too). Values shorter than 8 characters are ignored.
   */
  add(secret: string): void {
    for (const form of secretForms(secret)) {
      if (form.length < MINIMUM_SECRET_LENGTH || this.secrets.has(form)) continue;
      this.secrets.add(form);
      this.pattern = undefined;
    }
  }

  /** `text` with every known secret replaced by `[redacted]` and every URL's credentials masked. */
  redactText(text: string): string {
    const masked = maskUrlCredentials(text);
    if (this.secrets.size === 0) return masked;
    // Longest first, so a secret that contains another is replaced whole.
    this.pattern ??= new RegExp([...this.secrets].sort((left, right) => right.length - left.length).map(escapeRegExp).join('|'), 'g');
    return masked.replace(this.pattern, REDACTED);
  }

  /**
   * `value` with every string in it redacted (see `redactText`): arrays and plain objects are copied
   * with their string values redacted, keys kept; anything else is returned as it is.
   */
  redactValue<Value>(value: Value): Value {
    return this.redactUnknown(value) as Value;
  }

  private redactUnknown(value: unknown): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (Array.isArray(value)) return value.map((item) => this.redactUnknown(item));
    if (!isPlainObject(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = this.redactUnknown(item);
    return copy;
  }
}

function secretForms(secret: string): string[] {
  const trimmed = secret.trim();
  const values = [secret, trimmed];
  const credential = schemeAndCredential.exec(trimmed);
  if (credential !== null) {
    const [, scheme, value] = credential as unknown as [string, string, string];
    values.push(value);
    if (scheme.toLowerCase() === 'basic') values.push(...basicPassword(value));
  }
  return values.flatMap((value) => [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
}

function basicPassword(encoded: string): string[] {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  return separator === -1 ? [] : [decoded.slice(separator + 1)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
