// @ts-check
/**
 * The HTML converter's worker thread: parses a page (linkedom), extracts its main content (Readability)
 * and converts it to markdown (turndown), one page per message, for as long as the host keeps it.
 * It runs apart from the main thread because that work can grow far faster than the page: Readability's
 * cost rises with the cube of the nesting depth, so a small page of deeply nested elements would stall
 * the process. The host bounds it with a time limit and a heap limit; before Readability runs, this
 * worker refuses trees deeper or larger than the limits it is given, and the host falls back to text.
 *
 * Plain JavaScript on purpose: Node 20 cannot start a worker from a TypeScript file, and this file has
 * to run unchanged from `src/` (tests) and `dist/` (the build emits it with `allowJs`).
 */
import { parentPort } from 'node:worker_threads';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** @typedef {import('./html-conversion-protocol.js').ConversionRequest} ConversionRequest */
/** @typedef {{ readonly children: Iterable<TreeElement> }} TreeElement an element as the tree check reads it */
/** @typedef {import('./html-conversion-protocol.js').ConversionAnswer} ConversionAnswer */

const port = parentPort;
if (port === null) throw new Error('html-conversion-worker.mjs must run as a worker thread');

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'template']);

// Removed before the fallback conversion, when Readability finds no article.
const chromeSelectors = 'script, style, noscript, iframe, template, nav, header, footer, aside, form, [role="navigation"], [role="banner"], [role="contentinfo"]';

port.on('message', (/** @type {ConversionRequest} */ request) => {
  /** @type {ConversionAnswer} */
  let answer;
  try {
    answer = convert(request);
  } catch (error) {
    answer = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});

/**
 * Extracts the main content and converts it to markdown. Links and images are made absolute against the
 * page URL (or its <base>) first, because Readability cannot do it without a browser's base URI and
 * relative links are useless to a model. When Readability finds no article, the body minus navigation,
 * header, footer and asides is used.
 * @param {ConversionRequest} request @returns {ConversionAnswer}
 */
function convert({ html, pageUrl, limits }) {
  const { document } = parseHTML(html);
  const refusal = treeRefusal(document, limits);
  if (refusal !== undefined) return refusal;
  const base = baseUrlOf(document, pageUrl);
  absolutizeLinks(document, base);
  const documentTitle = document.title?.trim() || null;

  const article = new Readability(/** @type {Document} */ (/** @type {unknown} */ (document))).parse();
  const contentHtml = article?.content ?? fallbackContent(html, base);
  const markdown = turndown
    .turndown(contentHtml)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { kind: 'converted', title: article?.title?.trim() || documentTitle, markdown };
}

/**
 * Why the tree is too deep or too large to hand to Readability, if it is. Walked without recursion, and
 * stopped at the first limit passed, so the check itself stays linear and shallow.
 * @param {ReturnType<typeof parseHTML>['document']} document @param {ConversionRequest['limits']} limits
 * @returns {ConversionAnswer | undefined}
 */
function treeRefusal(document, limits) {
  /** @type {Array<[TreeElement, number]>} */
  const pending = document.documentElement === null ? [] : [[/** @type {TreeElement} */ (/** @type {unknown} */ (document.documentElement)), 1]];
  let elements = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [element, depth] = next;
    if (depth > limits.maxDepth) return { kind: 'refused', reason: 'too-deep' };
    if (++elements > limits.maxElements) return { kind: 'refused', reason: 'too-many-elements' };
    for (const child of element.children) pending.push([child, depth + 1]);
  }
  return undefined;
}

/** @param {ReturnType<typeof parseHTML>['document']} document @param {string} pageUrl */
function baseUrlOf(document, pageUrl) {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  try {
    return new URL(href ?? pageUrl, pageUrl);
  } catch {
    return new URL(pageUrl);
  }
}

/** @param {ReturnType<typeof parseHTML>['document']} document @param {URL} base */
function absolutizeLinks(document, base) {
  for (const [selector, attribute] of /** @type {const} */ ([
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ])) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? '';
      let absolute;
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

/** @param {string} html @param {URL} base */
function fallbackContent(html, base) {
  const { document } = parseHTML(html);
  absolutizeLinks(document, base);
  for (const element of document.querySelectorAll(chromeSelectors)) element.remove();
  return document.body?.innerHTML ?? '';
}
