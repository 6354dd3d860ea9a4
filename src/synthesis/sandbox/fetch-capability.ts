import { z } from 'zod';
import { parseCapabilityArguments } from './capability-arguments.js';
import type { CapabilityDefinition } from './capability-definition.js';
import { SandboxSetupError } from './sandbox-setup-error.js';

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

// Only method, headers and body: redirect handling, signals and dispatchers stay with the SSRF guard.
const fetchArguments = z.tuple([
  z.string().min(1).max(8192),
  z
    .strictObject({
      method: z
        .string()
        .transform((method) => method.toUpperCase())
        .pipe(z.enum(methods))
        .optional(),
      headers: z.record(z.string(), z.string()).optional(),
      body: z.string().optional(),
    })
    .nullish(),
]);

export const fetchCapability: CapabilityDefinition = {
  name: 'fetch',
  description:
    "HTTP(S) request through Forge's SSRF guard. Private, loopback, link-local and metadata addresses are refused " +
    '(the promise rejects with NetworkBlockedError); redirects are always followed by the guard, which checks every hop, ' +
    'and `init` cannot change that. The body is read as text and capped (`truncated` tells when it was cut). ' +
    'Any HTTP status resolves normally: check `ok` or `status`.',
  signature: [
    'forge.fetch(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{',
    '  url: string; status: number; ok: boolean; redirected: boolean; truncated: boolean;',
    '  headers: Record<string, string> & { get(name: string): string | null };',
    '  text(): Promise<string>; json(): Promise<unknown>;',
    '}>',
  ].join('\n'),
  guestAdapter: `(call) => async function fetch(url, init) {
    const response = await call('fetch', [String(url), init === undefined ? null : init]);
    const headers = { ...response.headers };
    Object.defineProperty(headers, 'get', { value: (name) => headers[String(name).toLowerCase()] ?? null });
    const body = response.body;
    return Object.freeze({
      url: response.url,
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      redirected: response.redirects.length > 0,
      truncated: response.truncated,
      headers: Object.freeze(headers),
      text: async () => body,
      json: async () => JSON.parse(body),
    });
  }`,
  createHostMethods(resources, run) {
    const guardedFetch = resources.fetch;
    if (guardedFetch === undefined) {
      throw new SandboxSetupError('The "fetch" capability was granted but no guarded fetch was supplied (hostCapabilities.fetch).');
    }
    return {
      async fetch(callArguments) {
        const [url, init] = parseCapabilityArguments(
          fetchArguments,
          callArguments,
          'forge.fetch',
          'init may set only method, headers and body; redirects are always followed, and checked, by the network guard',
        );
        const response = await guardedFetch(url, {
          ...(init?.method === undefined ? {} : { method: init.method }),
          ...(init?.headers === undefined ? {} : { headers: init.headers }),
          ...(init?.body === undefined ? {} : { body: init.body }),
          signal: run.signal,
        });
        return {
          url: response.url,
          status: response.status,
          headers: lowercaseKeys(response.headers),
          body: response.text(),
          truncated: response.truncated,
          redirects: [...response.redirects],
        };
      },
    };
  },
};

function lowercaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
