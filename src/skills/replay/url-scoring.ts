import { isGenericWord, wordsOf } from '../generic-words.js';

/**
 * The URL scorer's weights, in points. A candidate is chosen without a model only when its score leads
 * the runner-up by at least `URL_DECISION_MARGIN`; closer races go to the rescue.
 */
export const URL_SCORE_WEIGHTS = {
  /** Per trusted keyword in the host or path (docs, documentation, official, reference, api, github, release(s), changelog); at most 3 count. */
  trustedKeyword: 2,
  /** The host ends in .org, .dev or .io. */
  trustedTld: 1.5,
  /** Per distinct query token (3+ letters, not a generic word) found in the host. */
  queryTokenInHost: 2,
  /** Per distinct query token found in the path but not the host. */
  queryTokenInPath: 1,
  /** The host is the recorded choice's host, or that host with the recorded inputs replaced by the new ones. */
  recordedDomain: 4,
  /** Per content-farm word in host or path (best, alternatives, deals, free, download, cheap, coupon, review(s), vs, ranking). */
  spamWord: -3,
  /** A "top 10" listicle (top10, top-10, top_10, …). */
  topList: -4,
  /** A tracking redirect (redirect/click paths, url=/u=/target= parameters, utm_ tags). */
  trackingRedirect: -5,
  /** Three or more hyphens in the host. */
  hyphenatedHost: -2,
  /** Four or more digits in the host. */
  digitHeavyHost: -2,
  /** A host known for low-quality or scraped content. */
  lowQualityHost: -4,
} as const;

/** How far the leader must be ahead of the runner-up for the heuristic to decide alone. */
export const URL_DECISION_MARGIN = 3;

const TRUSTED_KEYWORDS = new Set(['docs', 'doc', 'documentation', 'official', 'reference', 'api', 'github', 'release', 'releases', 'changelog']);
const TRUSTED_TLDS = ['.org', '.dev', '.io'];
const SPAM_WORDS = new Set(['best', 'alternatives', 'alternative', 'deals', 'deal', 'free', 'download', 'cheap', 'coupon', 'coupons', 'review', 'reviews', 'vs', 'ranking', 'ranked']);
const LOW_QUALITY_HOSTS = ['pinterest.', 'quora.', 'scribd.', 'slideshare.', 'answers.', 'ehow.', 'wikihow.', 'clickbait.', 'contentfarm.', 'seo-'];

/** Why a URL scored what it did: each signal that fired and its points. */
export interface UrlScore {
  readonly url: string;
  readonly score: number;
  readonly signals: readonly { readonly signal: keyof typeof URL_SCORE_WEIGHTS; readonly points: number }[];
}

export interface UrlScoringContext {
  /** What the step that produced the candidates searched for (its rendered text arguments and the inputs). */
  readonly query: string;
  /** Hosts that count as "the recorded choice's domain". */
  readonly recordedHosts: readonly string[];
}

function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((token) => token !== '');
}

/** Scores one candidate URL with the documented weights. Unparseable URLs score -Infinity. */
export function scoreUrl(url: string, context: UrlScoringContext): UrlScore {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, score: Number.NEGATIVE_INFINITY, signals: [] };
  }
  const host = parsed.hostname.toLowerCase();
  const path = decodeURIComponent(`${parsed.pathname}${parsed.search}`).toLowerCase();
  const hostTokens = tokens(host);
  const pathTokens = tokens(path);
  const all = [...hostTokens, ...pathTokens];
  const signals: { signal: keyof typeof URL_SCORE_WEIGHTS; points: number }[] = [];
  const add = (signal: keyof typeof URL_SCORE_WEIGHTS, times = 1) => {
    if (times > 0) signals.push({ signal, points: URL_SCORE_WEIGHTS[signal] * times });
  };
  const keywords = new Set(all.filter((token) => TRUSTED_KEYWORDS.has(token)).map((token) => (token === 'releases' ? 'release' : token === 'doc' ? 'docs' : token)));
  add('trustedKeyword', Math.min(3, keywords.size));
  if (TRUSTED_TLDS.some((tld) => host.endsWith(tld))) add('trustedTld');
  const queryTokens = [...new Set(wordsOf(context.query).flatMap((word) => tokens(word.text)).filter((token) => token.length >= 3 && !isGenericWord(token)))];
  const inHost = queryTokens.filter((token) => host.includes(token));
  add('queryTokenInHost', inHost.length);
  add('queryTokenInPath', queryTokens.filter((token) => !inHost.includes(token) && pathTokens.some((pathToken) => pathToken.includes(token))).length);
  if (context.recordedHosts.includes(host)) add('recordedDomain');
  add('spamWord', new Set(all.filter((token) => SPAM_WORDS.has(token))).size);
  if (/top[-_ ]?\d+/.test(`${host}${path}`)) add('topList');
  if (/\/(redirect|click|out|track)(\/|\?|$)|[?&](url|u|target|dest)=https?|[?&]utm_/.test(path)) add('trackingRedirect');
  if ((host.match(/-/g) ?? []).length >= 3) add('hyphenatedHost');
  if ((host.match(/\d/g) ?? []).length >= 4) add('digitHeavyHost');
  if (LOW_QUALITY_HOSTS.some((pattern) => host.includes(pattern))) add('lowQualityHost');
  return { url, score: signals.reduce((total, signal) => total + signal.points, 0), signals };
}

/**
 * The recorded choice's host, and the same host with each recorded input replaced by its new value
 * (`docs.lumen.dev` recorded for topic "lumen" is `docs.tessera.dev` for topic "tessera").
 */
export function recordedHostsFor(recordedUrl: unknown, recordedInputs: Readonly<Record<string, unknown>>, inputs: Readonly<Record<string, unknown>>): string[] {
  if (typeof recordedUrl !== 'string') return [];
  let host: string;
  try {
    host = new URL(recordedUrl).hostname.toLowerCase();
  } catch {
    return [];
  }
  const hosts = new Set([host]);
  for (const [name, recorded] of Object.entries(recordedInputs)) {
    const fresh = inputs[name];
    if (typeof recorded !== 'string' || typeof fresh !== 'string' || recorded === '') continue;
    const from = recorded.toLowerCase();
    if (!host.includes(from.replace(/\s+/g, '')) && !host.includes(from.replace(/\s+/g, '-'))) continue;
    for (const joiner of ['', '-']) {
      hosts.add(host.replace(from.replace(/\s+/g, joiner), fresh.toLowerCase().trim().replace(/\s+/g, joiner)));
    }
  }
  return [...hosts];
}
