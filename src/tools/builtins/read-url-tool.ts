import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { defineTool, ToolExecutionError } from '../../core/index.js';
import { maskUrlCredentials } from '../../security/redaction/index.js';
import { classifyContent, describeBinaryBody, mediaTypeOf } from './content-kind.js';

/**
 * What `read_url` returns. `url` is the final URL after redirects; `markdown` is the page's main
 * content for HTML, the body itself for text and JSON, and a one-line description for binary types.
 * `truncated` is true when the body was cut at the guard's byte cap. `fallback` is present only when an
 * HTML page could not be converted within the converter's limits: it says why, and `markdown` then
 * holds the page's plain text.
 */
export interface ReadUrlOutput {
  readonly url: string;
  readonly title: string | null;
  readonly content_type: string;
  readonly markdown: string;
  readonly truncated: boolean;
  readonly fallback?: string;
}

const accept = 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5';

/** `read_url({url})`: reads one web page through the guarded fetch. HTTP 4xx/5xx are tool errors. */
export const readUrlTool = defineTool({
  name: 'read_url',
  description:
    'Read a web page and get its main content as markdown (navigation, ads and footers removed), with its title and final URL after redirects. Text and JSON come back as they are; binary files are only described.',
  inputSchema: z.object({
    url: z.string().trim().min(1).describe('The absolute http(s) URL to read.'),
  }),
  risk: 'low',
  sideEffect: 'read',
  external: true,
  async execute(input, context): Promise<ReadUrlOutput> {
    const response = await context.fetch(input.url, { headers: { accept }, signal: context.signal });
    if (response.status >= 400) {
      throw new ToolExecutionError('read_url', `${maskUrlCredentials(response.url)} answered HTTP ${response.status} (${STATUS_CODES[response.status] ?? 'unknown status'}).`);
    }
    const contentType = response.headers['content-type'];
    const base = { url: response.url, content_type: mediaTypeOf(contentType) || 'unknown', truncated: response.truncated };
    switch (classifyContent(contentType, response.body)) {
      case 'html': {
        // Loaded on first use; the converter itself runs in a worker thread (see html-to-markdown.ts).
        const { htmlToMarkdown } = await import('./html-to-markdown.js');
        const page = await htmlToMarkdown(response.text(), response.url, { signal: context.signal });
        return { ...base, title: page.title, markdown: page.markdown, ...(page.fallback === undefined ? {} : { fallback: page.fallback }) };
      }
      case 'text':
        return { ...base, title: null, markdown: response.text() };
      case 'binary':
        return { ...base, title: null, markdown: describeBinaryBody(contentType, response.body.length, response.truncated) };
    }
  },
});
