import { describe, expect, it } from 'vitest';
import { htmlConversionLimits, htmlToMarkdown } from './html-to-markdown.js';

const page = (body: string) => `<!doctype html><html><head><title>A page</title></head><body>${body}</body></html>`;
const article = page(`<nav><a href="/home">Home</a></nav><article><h1>Heading</h1><p>${'A sentence of the article that Readability keeps. '.repeat(12)}</p><p>See <a href="/next">the next part</a>.</p></article>`);
const nested = (depth: number, inner: string) => page(`${'<div>'.repeat(depth)}${inner}${'</div>'.repeat(depth)}`);

describe('htmlToMarkdown', () => {
  it('converts the main content to markdown in its worker, with absolute links and no fallback', async () => {
    const converted = await htmlToMarkdown(article, 'https://example.org/docs/page');
    expect(converted.fallback).toBeUndefined();
    expect(converted.title).toBe('A page');
    expect(converted.markdown).toContain('A sentence of the article');
    expect(converted.markdown).toContain('[the next part](https://example.org/next)');
    expect(converted.markdown).not.toContain('Home');
  });

  it('returns the plain text of a page nested deeper than the limit, without handing it to Readability', async () => {
    const converted = await htmlToMarkdown(nested(20_000, '<p>deep &amp; buried</p>'), 'https://example.org/');
    expect(converted).toEqual({
      title: 'A page',
      markdown: 'deep & buried',
      fallback: `The page nests elements more than ${htmlConversionLimits.maxDepth} deep, so its text is returned without markup.`,
    });
  });

  it('returns the plain text of a page with more elements than the limit', async () => {
    const converted = await htmlToMarkdown(page('<p>one</p><p>two</p><p>three</p>'), 'https://example.org/', { limits: { maxElements: 4 } });
    expect(converted.fallback).toBe('The page has more than 4 elements, so its text is returned without markup.');
    expect(converted.markdown).toBe('one\n\ntwo\n\nthree');
  });

  it('ends a conversion that runs past its time limit and returns the text instead', async () => {
    // Within the tree limits, but Readability needs far longer than 1 ms for it.
    const converted = await htmlToMarkdown(nested(120, '<p>slow to convert</p>'), 'https://example.org/', { limits: { timeMs: 1 } });
    expect(converted.fallback).toBe('Converting the page took longer than 0.001 s, so its text is returned without markup.');
    expect(converted.markdown).toBe('slow to convert');
    // The ended worker is replaced: the next page converts normally.
    expect((await htmlToMarkdown(article, 'https://example.org/')).fallback).toBeUndefined();
  });

  it('rejects with the reason of an aborted signal', async () => {
    const controller = new AbortController();
    const pending = htmlToMarkdown(nested(120, '<p>x</p>'), 'https://example.org/', { signal: controller.signal });
    controller.abort(new Error('the run was cancelled'));
    await expect(pending).rejects.toThrow('the run was cancelled');
  });
});
