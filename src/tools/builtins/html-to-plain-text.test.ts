import { describe, expect, it } from 'vitest';
import { htmlToPlainText } from './html-to-plain-text.js';

describe('htmlToPlainText', () => {
  it('keeps the visible text, blocks apart by a blank line, and the title aside', () => {
    const html = `<!doctype html><html><head><title>The &quot;title&quot;</title><style>p { color: red }</style><script>var hidden = '<p>no</p>';</script></head>
      <body><!-- a comment <p>no</p> --><h1>Heading</h1><p>First   paragraph with <b>bold</b> &amp; &#x41;&#66;.</p>
      <ul><li>one</li><li>two</li></ul><SCRIPT type="module">alert("no")</SCRIPT><p>Last&nbsp;line</p></body></html>`;
    expect(htmlToPlainText(html)).toEqual({ title: 'The "title"', text: 'Heading\n\nFirst paragraph with bold & AB.\n\none\n\ntwo\n\nLast line' });
  });

  it('reads pages built to make a scanner backtrack in one pass', () => {
    const openings = '<script'.repeat(100_000);
    expect(htmlToPlainText(`before${openings}`).text).toBe('before');
    expect(htmlToPlainText(`<p>kept</p>${'<script>x'.repeat(50_000)}`).text).toBe('kept');
    expect(htmlToPlainText(`${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`).text).toBe('deep');
    expect(htmlToPlainText(`${'<!--'.repeat(100_000)}`).text).toBe('');
    expect(htmlToPlainText(`${'&#x'.repeat(100_000)}`).text).toBe('&#x'.repeat(100_000));
  });
});
