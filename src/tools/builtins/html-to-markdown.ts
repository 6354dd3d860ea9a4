import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

export interface PageMarkdown {
  readonly title: string | null;
  readonly markdown: string;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'template']);

// Removed before the fallback conversion, when Readability finds no article.
const chromeSelectors = 'script, style, noscript, iframe, template, nav, header, footer, aside, form, [role="navigation"], [role="banner"], [role="contentinfo"]';

/**
 * Extracts the main content of an HTML page (Readability over linkedom) and converts it to markdown
 * (turndown). Links and images are made absolute against `pageUrl` (or the page's <base>) first,
 * because Readability cannot do it without a browser's base URI and relative links are useless to a
 * model. When Readability finds no article, the body minus navigation, header, footer and asides is used.
 */
export function htmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  const { document } = parseHTML(html);
  const base = baseUrlOf(document, pageUrl);
  absolutizeLinks(document, base);
  const documentTitle = document.title?.trim() || null;

  const article = new Readability(document as unknown as Document).parse();
  const contentHtml = article?.content ?? fallbackContent(html, base);
  const markdown = turndown
    .turndown(contentHtml)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: article?.title?.trim() || documentTitle, markdown };
}

function baseUrlOf(document: ReturnType<typeof parseHTML>['document'], pageUrl: string): URL {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  try {
    return new URL(href ?? pageUrl, pageUrl);
  } catch {
    return new URL(pageUrl);
  }
}

function absolutizeLinks(document: ReturnType<typeof parseHTML>['document'], base: URL): void {
  for (const [selector, attribute] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? '';
      let absolute: URL;
      try {
        absolute = new URL(value, base);
      } catch {
        element.removeAttribute(attribute);
        continue;
      }
      // javascript: and similar links mean nothing outside a browser; keep their text, drop the target.
      if (!['http:', 'https:', 'mailto:'].includes(absolute.protocol)) element.removeAttribute(attribute);
      else element.setAttribute(attribute, absolute.href);
    }
  }
}

function fallbackContent(html: string, base: URL): string {
  const { document } = parseHTML(html);
  absolutizeLinks(document, base);
  for (const element of document.querySelectorAll(chromeSelectors)) element.remove();
  return document.body?.innerHTML ?? '';
}
