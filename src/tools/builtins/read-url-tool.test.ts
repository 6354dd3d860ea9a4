import { describe, expect, it } from 'vitest';
import { NetworkBlockedError, ToolExecutionError, type GuardedFetch } from '../../core/index.js';
import { FIXTURE_TEXT } from '../../../test/fixtures/fixture-web.js';
import { callTool, createToolContext, rejection } from '../../../test/fixtures/tool-context.js';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../../security/index.js';
import { useGuardedWeb } from '../../../test/fixtures/guarded-web.js';
import { readUrlTool, type ReadUrlOutput } from './read-url-tool.js';

const net = useGuardedWeb();

async function readUrl(url: string, guardedFetch: GuardedFetch = net.fetch): Promise<ReadUrlOutput> {
  return (await callTool(readUrlTool, { url }, createToolContext({ fetch: guardedFetch }))) as ReadUrlOutput;
}

describe('read_url', () => {
  it('returns the main content as markdown, without navigation, ads, banners or footer', async () => {
    const page = await readUrl(net.web.pages.article);
    expect(page.url).toBe(net.web.pages.article);
    expect(page.content_type).toBe('text/html');
    expect(page.title).toContain(FIXTURE_TEXT.articleTitle);
    expect(page.markdown).toContain(FIXTURE_TEXT.articleSentence);
    expect(page.markdown).toContain('## How the cache key is built');
    expect(page.markdown).toContain('```\nforge run "summarize the release notes" --keep\n```');
    for (const junk of FIXTURE_TEXT.articleJunk) expect(page.markdown).not.toContain(junk);
    expect(page.truncated).toBe(false);
  });

  it('makes relative links absolute against the page URL', async () => {
    const page = await readUrl(net.web.pages.article);
    expect(page.markdown).toContain(`[failure tracking guide](${net.web.url(net.web.hosts.docs, '/guides/failure-tracking')})`);
  });

  it('follows a cross-host redirect and reports the final URL', async () => {
    const page = await readUrl(net.web.pages.crossHostRedirect);
    expect(page.url).toBe(net.web.pages.article);
    expect(page.markdown).toContain(FIXTURE_TEXT.articleSentence);
    expect(net.web.requests.map((request) => `${request.host}${request.path}`)).toEqual([
      `${net.web.hosts.blog}/2023/05/caching-in-forge`,
      `${net.web.hosts.docs}/guides/caching-tool-results`,
    ]);
  });

  it('follows a same-host permanent redirect', async () => {
    expect((await readUrl(net.web.pages.articleMoved)).url).toBe(net.web.pages.article);
  });

  it('returns a large page whole; capping for the model happens later, in dispatch', async () => {
    const page = await readUrl(net.web.pages.large);
    expect(page.title).toContain(FIXTURE_TEXT.largeTitle);
    expect(page.markdown.length).toBeGreaterThan(100_000);
    expect(page.markdown).toContain(FIXTURE_TEXT.largeEndMarker);
    expect(page.truncated).toBe(false);
  });

  it("reports a page cut at the guard's byte cap", async () => {
    const cappedFetch = createGuardedFetch({ resolve: parseResolveEntries(net.web.resolveEntries), allowHosts: parseAllowHosts(net.web.allowHosts), maxBytes: 20_000 });
    const page = await readUrl(net.web.pages.large, cappedFetch);
    expect(page.truncated).toBe(true);
    expect(page.markdown).not.toContain(FIXTURE_TEXT.largeEndMarker);
    expect(page.markdown.length).toBeLessThan(20_000);
    expect(page.markdown).toContain('Section 1.');
  });

  it('returns JSON and plain text as they are', async () => {
    const json = await readUrl(net.web.pages.json);
    expect(json.content_type).toBe('application/json');
    expect(json.title).toBeNull();
    expect((JSON.parse(json.markdown) as { latest: string }).latest).toBe(FIXTURE_TEXT.jsonLatestVersion);
    const text = await readUrl(net.web.pages.text);
    expect(text.content_type).toBe('text/plain');
    expect(text.markdown.startsWith(FIXTURE_TEXT.textFirstLine)).toBe(true);
  });

  it('describes binary files instead of returning their bytes', async () => {
    const pdf = await readUrl(net.web.pages.pdf);
    expect(pdf.content_type).toBe('application/pdf');
    expect(pdf.markdown).toMatch(/^Binary content \(application\/pdf, \d+ bytes\) was not converted to text\.$/);
    const png = await readUrl(net.web.pages.png);
    expect(png.markdown).toMatch(/^Binary content \(image\/png, \d+ bytes\)/);
  });

  it('turns HTTP errors into tool errors naming the status', async () => {
    const error = await rejection(readUrl(net.web.pages.notFound));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.message).toContain(`${net.web.pages.notFound} answered HTTP 404 (Not Found)`);
  });

  it('refuses a fixture page that redirects to loopback, and the internal page is never requested', async () => {
    const error = await rejection(readUrl(net.web.pages.loopbackEscape));
    expect(error).toBeInstanceOf(NetworkBlockedError);
    expect(error.message).toContain('127.0.0.1 is a loopback address');
    expect(net.web.requests.map((request) => request.path)).toEqual(['/free-download']);
  });

  it('cannot reach the fixture web when it is not in the allow list (the guard is on by default)', async () => {
    const closedFetch = createGuardedFetch({ resolve: parseResolveEntries(net.web.resolveEntries) });
    for (const url of [net.web.pages.article, net.web.pages.internalAdmin]) {
      const error = await rejection(readUrl(url, closedFetch));
      expect(error).toBeInstanceOf(NetworkBlockedError);
      expect(error.hint).toContain('FORGE_ALLOW_HOSTS');
    }
    expect(net.web.requests).toEqual([]);
  });
});
