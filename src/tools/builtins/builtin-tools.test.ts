import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, callSideEffect } from '../../core/index.js';
import { createBuiltinTools } from './index.js';

function inputProperties(schema: z.ZodType): { properties: string[]; required: string[] } {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, unknown>; required?: string[] };
  return { properties: Object.keys(json.properties ?? {}).sort(), required: [...(json.required ?? [])].sort() };
}

describe('createBuiltinTools', () => {
  it('keeps the public contract: tool names and argument names', () => {
    const tools = createBuiltinTools({});
    expect(tools.map((tool) => tool.name)).toEqual(['web_search', 'read_url', 'http_request']);
    const [webSearch, readUrl, httpRequest] = tools;
    expect(inputProperties(webSearch!.inputSchema)).toEqual({ properties: ['max_results', 'query'], required: ['query'] });
    expect(inputProperties(readUrl!.inputSchema)).toEqual({ properties: ['url'], required: ['url'] });
    expect(inputProperties(httpRequest!.inputSchema)).toEqual({ properties: ['body', 'headers', 'method', 'url'], required: ['method', 'url'] });
    for (const tool of tools) expect(tool.external).toBe(true);
  });

  it('declares what each call can do: searching and reading read, an HTTP request writes unless its method is safe', () => {
    const [webSearch, readUrl, httpRequest] = createBuiltinTools({});
    expect([webSearch!.sideEffect, readUrl!.sideEffect, httpRequest!.sideEffect]).toEqual(['read', 'read', 'write']);
    const effectOf = (method: string) => callSideEffect(httpRequest!, { method, url: 'https://example.org' });
    expect(['GET', 'HEAD', 'OPTIONS'].map(effectOf)).toEqual(['read', 'read', 'read']);
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map(effectOf)).toEqual(['write', 'write', 'write', 'write']);
  });

  it('bounds max_results to 1-20', () => {
    const [webSearch] = createBuiltinTools({});
    expect(webSearch!.inputSchema.safeParse({ query: 'q', max_results: 0 }).success).toBe(false);
    expect(webSearch!.inputSchema.safeParse({ query: 'q', max_results: 21 }).success).toBe(false);
    expect(webSearch!.inputSchema.parse({ query: 'q' })).toEqual({ query: 'q', max_results: 5 });
  });

  it('rejects malformed search settings', () => {
    expect(() => createBuiltinTools({ provider: 'searxng', searxngUrl: 'file:///etc/passwd' })).toThrow(ConfigurationError);
  });
});
