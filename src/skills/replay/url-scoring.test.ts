import { describe, expect, it } from 'vitest';
import { URL_DECISION_MARGIN, URL_SCORE_WEIGHTS, recordedHostsFor, scoreUrl } from './url-scoring.js';

describe('URL scoring', () => {
  const context = { query: 'tessera latest release', recordedHosts: recordedHostsFor('http://docs.lumen.dev:8080/releases/latest', { topic: 'lumen' }, { topic: 'tessera' }) };

  it('carries the recorded choice\'s domain over to the new input', () => {
    expect(context.recordedHosts).toEqual(['docs.lumen.dev', 'docs.tessera.dev']);
  });

  it('puts official docs ahead of the code host by more than the margin, and spam far behind', () => {
    const docs = scoreUrl('http://docs.tessera.dev:8080/releases/latest', context);
    const code = scoreUrl('http://github.com:8080/forge-world/tessera/releases/tag/v2.9.1', context);
    const listicle = scoreUrl('http://top10-best-dev-tools-2025.com:8080/best-tessera-alternatives-top-10', context);
    const tracker = scoreUrl('http://click.adnet-track.net:8080/redirect?url=https://docs.tessera.dev/releases/latest&utm_source=search', context);

    expect(docs.signals.map((signal) => signal.signal)).toEqual(['trustedKeyword', 'trustedTld', 'queryTokenInHost', 'recordedDomain']);
    expect(docs.score).toBe(2 * URL_SCORE_WEIGHTS.trustedKeyword + URL_SCORE_WEIGHTS.trustedTld + URL_SCORE_WEIGHTS.queryTokenInHost + URL_SCORE_WEIGHTS.recordedDomain);
    expect(docs.score - code.score).toBeGreaterThanOrEqual(URL_DECISION_MARGIN);
    expect(listicle.signals.map((signal) => signal.signal)).toEqual(expect.arrayContaining(['spamWord', 'topList', 'hyphenatedHost', 'digitHeavyHost']));
    expect(listicle.score).toBeLessThan(0);
    expect(tracker.signals.map((signal) => signal.signal)).toContain('trackingRedirect');
    expect(tracker.score).toBeLessThan(code.score);
  });

  it('cannot tell two pages of the same docs site apart, which is what the rescue is for', () => {
    const current = scoreUrl('http://docs.tessera.dev/releases/latest', context);
    const legacy = scoreUrl('http://docs.tessera.dev/legacy/releases/latest', context);
    expect(Math.abs(current.score - legacy.score)).toBeLessThan(URL_DECISION_MARGIN);
  });

  it('scores what is not a URL as unusable', () => {
    expect(scoreUrl('not a url', context).score).toBe(Number.NEGATIVE_INFINITY);
  });
});
