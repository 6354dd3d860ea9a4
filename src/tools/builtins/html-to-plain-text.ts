/** A page's title and visible text, read without building a document tree. */
export interface PlainTextPage {
  readonly title: string | null;
  readonly text: string;
}

// Elements whose content is not text a reader sees; `title` is kept aside as the title.
const hiddenContent = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'title']);
// Tags that end a line of text when they open or close.
const lineBreaking = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'td', 'th', 'tr', 'ul',
]);
const namedEntities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const tagName = /<\/?([a-zA-Z][a-zA-Z0-9-]*)/y;

/**
 * The text of an HTML page, for when it cannot be converted to markdown. A single forward scan that
 * never backtracks: every step moves past what it read, so the time is linear in the page's length
 * however the page is built (deep nesting, unclosed tags, thousands of `<script` openings). Tags are
 * dropped, hidden content (scripts, styles, the head) is skipped, block tags end lines, common entities
 * are decoded and blank lines are collapsed.
 */
export function htmlToPlainText(html: string): PlainTextPage {
  const pieces: string[] = [];
  let title: string | null = null;
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) {
      pieces.push(html.slice(position));
      break;
    }
    pieces.push(html.slice(position, open));
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      position = close === -1 ? html.length : close + 3;
      continue;
    }
    tagName.lastIndex = open;
    const name = tagName.exec(html)?.[1]?.toLowerCase();
    const end = html.indexOf('>', open + 1);
    if (end === -1) break;
    position = end + 1;
    if (name === undefined) continue;
    const closing = html[open + 1] === '/';
    if (!closing && hiddenContent.has(name)) {
      const contentEnd = closingTagAt(html, name, position);
      if (name === 'title' && title === null) title = collapse(decodeEntities(html.slice(position, contentEnd))) || null;
      position = contentEnd;
      continue;
    }
    if (lineBreaking.has(name)) pieces.push('\n');
  }
  const lines = decodeEntities(pieces.join('')).split('\n').map(collapse);
  const kept: string[] = [];
  for (const line of lines) {
    if (line !== '' || (kept.length > 0 && kept[kept.length - 1] !== '')) kept.push(line);
  }
  return { title, text: kept.join('\n').trim() };
}

/** Where the element `name`, opened just before `from`, closes (the start of `</name`); the end of the page if never. */
function closingTagAt(html: string, name: string, from: number): number {
  const pattern = new RegExp(`</${name}[\\s>/]`, 'gi');
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? html.length;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,6});/g, (entity, body: string) => {
    if (body.startsWith('#')) {
      const codePoint = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}

function collapse(text: string): string {
  return text.replace(/[ \t\f\v\r\u00a0]+/g, ' ').trim();
}
