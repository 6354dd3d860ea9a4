import { describe, expect, it } from 'vitest';
import { renderSnapshot } from './page-snapshot.js';

// The shape `page.ariaSnapshotJSON({ mode: 'ai' })` returns, as Playwright 1.65 gives it for a small page.
const snapshot = [
  {
    role: 'generic',
    ref: 'e1',
    children: [
      { role: 'navigation', ref: 'e2', children: [{ role: 'link', name: 'Home', ref: 'e3', cursor: 'pointer', url: '/' }] },
      {
        role: 'main',
        ref: 'e4',
        children: [
          { role: 'heading', name: 'Welcome', level: 1, ref: 'e5' },
          { role: 'paragraph', ref: 'e6', children: ['Read the', { role: 'link', name: 'guide', ref: 'e7', cursor: 'pointer', url: 'docs/guide?x=1' }, 'first.'] },
          { role: 'textbox', name: 'Email', ref: 'e8', placeholder: 'you@example.com', text: 'ada@example.com' },
          { role: 'checkbox', name: 'Agree', ref: 'e9', checked: true },
          { role: 'combobox', ref: 'e10', children: [{ role: 'option', name: 'One' }, { role: 'option', name: 'Two', selected: true }] },
          { role: 'button', name: 'Send', ref: 'e11', disabled: true },
          { role: 'generic', ref: 'e12', cursor: 'pointer', text: 'Clickable card' },
          { role: 'list', ref: 'e13', children: [{ role: 'listitem', ref: 'e14', text: 'First' }, { role: 'listitem', ref: 'e15', text: 'Second' }] },
          {
            role: 'table',
            ref: 'e16',
            children: [{ role: 'rowgroup', ref: 'e17', children: [{ role: 'row', ref: 'e18', children: [{ role: 'cell', name: 'Price', ref: 'e19' }, { role: 'cell', name: '12 €', ref: 'e20' }] }] }],
          },
          { role: 'img', name: 'Logo', ref: 'e21' },
          { role: 'img', ref: 'e22' },
          { role: 'iframe', ref: 'e23', children: [{ role: 'button', name: 'In a frame', ref: 'f1e2' }] },
        ],
      },
    ],
  },
];

describe('renderSnapshot', () => {
  it('renders headings, text, sections, lists, rows and every actionable element with its ref, state, value and absolute URL', () => {
    const rendered = renderSnapshot(snapshot, 'http://127.0.0.1:8080/start/page', 10_000);
    expect(rendered.truncated).toBe(false);
    expect(rendered.text.split('\n')).toEqual([
      'navigation:',
      '  [e3] link "Home" → http://127.0.0.1:8080/',
      'main:',
      '  # Welcome',
      '  Read the',
      '  [e7] link "guide" → http://127.0.0.1:8080/start/docs/guide?x=1',
      '  first.',
      '  [e8] textbox "Email" = "ada@example.com" placeholder "you@example.com"',
      '  [e9] checkbox "Agree" (checked)',
      '  [e10] combobox options: "One", "Two" (selected)',
      '  [e11] button "Send" (disabled)',
      '  [e12] clickable "Clickable card"',
      '  - First',
      '  - Second',
      '  | Price | 12 € |',
      '  img "Logo"',
      '  iframe:',
      '    [f1e2] button "In a frame"',
    ]);
  });

  it('stops on a whole line before the cap and says how to read the rest', () => {
    const links = Array.from({ length: 200 }, (_, index) => ({ role: 'link', name: `Link number ${index}`, ref: `e${index + 2}`, url: `/page/${index}` }));
    const rendered = renderSnapshot([{ role: 'generic', ref: 'e1', children: links }], 'http://127.0.0.1:8080/', 2_000);
    expect(rendered.truncated).toBe(true);
    expect(rendered.text.length).toBeLessThanOrEqual(2_000 + 200);
    const lines = rendered.text.split('\n');
    expect(lines.at(-1)).toMatch(/^\[snapshot cut: \d+ more lines; browser_extract with a CSS selector reads one part of the page\]$/);
    expect(lines.slice(0, -1).every((line) => /^\[e\d+\] link "Link number \d+" → http:\/\/127\.0\.0\.1:8080\/page\/\d+$/.test(line))).toBe(true);
    expect(lines.length - 1 + Number(/cut: (\d+)/.exec(lines.at(-1) ?? '')?.[1])).toBe(200);
  });

  it('cuts a long text and skips what is not a node', () => {
    const rendered = renderSnapshot([{ role: 'paragraph', text: 'word '.repeat(200) }, 42, null, { name: 'no role' }], 'http://127.0.0.1/', 10_000);
    expect(rendered.text).toMatch(/^(word ){59}word…$/);
  });
});
