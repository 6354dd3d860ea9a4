import { REDACTED, maskUrlCredentials } from '../security/redaction/index.js';

/** A string in a value that looks like a credential: where it is, and what it looks like (never the string itself). */
export interface SecretLikeValue {
  readonly segments: readonly (string | number)[];
  /** `an API key (sk-…)`, `a GitHub token`, `a long random string`, … */
  readonly kind: string;
}

interface SecretShape {
  readonly kind: string;
  /** Global: every match is judged, and replaced on redaction. */
  readonly pattern: RegExp;
  /** For shapes ordinary text can take too: whether this match is random enough to be a key. */
  readonly accept?: (match: string) => boolean;
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

function entropyBitsPerCharacter(text: string): number {
  const frequencies = new Map<string, number>();
  for (const character of text) frequencies.set(character, (frequencies.get(character) ?? 0) + 1);
  let bits = 0;
  for (const frequency of frequencies.values()) bits -= (frequency / text.length) * Math.log2(frequency / text.length);
  return bits;
}

/**
 * Random base64 of 40 characters or more: upper and lower case and digits mixed, with high entropy.
 * English in camelCase or a file path has few digits; a hex digest has no upper case: neither counts.
 */
function looksRandom(run: string): boolean {
  return count(run, /[0-9]/g) >= 2 && count(run, /[A-Z]/g) >= 2 && count(run, /[a-z]/g) >= 2 && entropyBitsPerCharacter(run) >= 4.2;
}

const SHAPES: readonly SecretShape[] = [
  // Provider keys: OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-); a digit tells them from words like sk-learn.
  { kind: 'an API key (sk-…)', pattern: /\bsk-[A-Za-z0-9_-]{20,}/g, accept: (match) => /[0-9]/.test(match) },
  { kind: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { kind: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'an AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'a Tavily key', pattern: /\btvly-[A-Za-z0-9_-]{20,}/g },
  { kind: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { kind: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'a long random string (a key?)', pattern: /[A-Za-z0-9+/_-]{40,}={0,2}/g, accept: looksRandom },
];

/** What `text` holds that looks like a credential, the most specific kind first; undefined when nothing does. */
function secretKindIn(text: string): string | undefined {
  if (maskUrlCredentials(text) !== text) return 'a URL with a user name or password';
  return SHAPES.find((shape) => [...text.matchAll(shape.pattern)].some(([match]) => shape.accept === undefined || shape.accept(match)))?.kind;
}

/** `text` with everything that looks like a credential replaced by `[redacted]` (URL credentials by `***`). */
export function redactSecretLikeText(text: string): string {
  let redacted = maskUrlCredentials(text);
  for (const shape of SHAPES) redacted = redacted.replace(shape.pattern, (match) => (shape.accept === undefined || shape.accept(match) ? REDACTED : match));
  return redacted;
}

/**
 * Every string in `value` (object keys included) that looks like a credential, once with its most specific kind: provider keys (`sk-…`,
 * GitHub, Slack, AWS, Google, Tavily), private keys, JSON Web Tokens, URLs with a password, and long
 * random base64. Walked without recursion, so nesting cannot exhaust the stack.
 */
export function findSecretLikeValues(value: unknown): SecretLikeValue[] {
  const found: SecretLikeValue[] = [];
  const pending: { value: unknown; segments: (string | number)[] }[] = [{ value, segments: [] }];
  while (pending.length > 0) {
    const { value: current, segments } = pending.pop()!;
    if (typeof current === 'string') {
      const kind = secretKindIn(current);
      if (kind !== undefined) found.push({ segments, kind });
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, segments: [...segments, index] }));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const kind = secretKindIn(key);
        if (kind !== undefined) found.push({ segments: [...segments, key], kind: `${kind} as a key` });
        pending.push({ value: item, segments: [...segments, key] });
      }
    }
  }
  return found.sort((left, right) => JSON.stringify(left.segments).localeCompare(JSON.stringify(right.segments)));
}

/** `value` copied with every string and key passed through `redactSecretLikeText`. */
export function redactSecretLikeValues<Value>(value: Value): Value {
  const redact = (current: unknown): unknown => {
    if (typeof current === 'string') return redactSecretLikeText(current);
    if (Array.isArray(current)) return current.map(redact);
    if (typeof current !== 'object' || current === null) return current;
    return Object.fromEntries(Object.entries(current).map(([key, item]) => [redactSecretLikeText(key), redact(item)]));
  };
  return redact(value) as Value;
}
