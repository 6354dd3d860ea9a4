import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { classifyContent, describeBinaryBody } from './content-kind.js';

/**
 * What `http_request` returns: any status (4xx and 5xx included, they are answers, not failures),
 * the final URL after redirects, response headers, and the body as text (binary bodies described).
 */
export interface HttpRequestOutput {
  readonly status: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly truncated: boolean;
}

/** Methods that only read (RFC 9110 "safe" methods): a call with any other may change remote state. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `http_request({method, url, headers?, body?})`: one HTTP call through the guarded fetch. */
export const httpRequestTool = defineTool({
  name: 'http_request',
  description:
    'Send an HTTP request (e.g. to a JSON API) and get the status, final URL, response headers and body text. Use read_url to read web pages.',
  inputSchema: z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']).describe('The HTTP method.'),
    url: z.string().trim().min(1).describe('The absolute http(s) URL.'),
    headers: z.record(z.string(), z.string()).optional().describe('Request headers, e.g. {"content-type": "application/json"}.'),
    body: z.string().optional().describe('The request body as text (e.g. serialized JSON).'),
  }),
  // It can change remote state with any method but the safe ones; the policy decides per call, seeing the input.
  risk: 'medium',
  sideEffect: 'write',
  external: true,
  sideEffectOf: ({ method }) => (SAFE_METHODS.has(method) ? 'read' : 'write'),
  async execute(input, context): Promise<HttpRequestOutput> {
    const response = await context.fetch(input.url, {
      method: input.method,
      ...(input.headers === undefined ? {} : { headers: input.headers }),
      ...(input.body === undefined ? {} : { body: input.body }),
      signal: context.signal,
    });
    const contentType = response.headers['content-type'];
    const body =
      response.body.length === 0
        ? ''
        : classifyContent(contentType, response.body) === 'binary'
          ? describeBinaryBody(contentType, response.body.length, response.truncated)
          : response.text();
    return { status: response.status, url: response.url, headers: response.headers, body, truncated: response.truncated };
  },
});
