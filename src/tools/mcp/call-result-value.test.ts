import { describe, expect, it } from 'vitest';
import { callResultValue } from './call-result-value.js';
import { McpToolCallError } from './mcp-errors.js';

describe('callResultValue', () => {
  it('joins text-only results into one string', () => {
    expect(callResultValue('s', 't', { content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] })).toBe('one\n\ntwo');
  });

  it('keeps structured content and turns images into references, never base64', () => {
    const png = Buffer.from('not really a png').toString('base64');

    const value = callResultValue('s', 't', {
      content: [{ type: 'text', text: 'see' }, { type: 'image', data: png, mimeType: 'image/png' }, { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' }],
      structuredContent: { total: 3 },
    });

    expect(value).toEqual({
      content: ['see', { type: 'image', mime_type: 'image/png', bytes: 16, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }, { type: 'resource', uri: 'file:///a.txt', name: 'a.txt' }],
      structured: { total: 3 },
    });
    expect(JSON.stringify(value)).not.toContain(png);
  });

  it('throws the server\'s text for a result flagged isError', () => {
    expect(() => callResultValue('docs', 'search', { isError: true, content: [{ type: 'text', text: 'quota exceeded' }] })).toThrow(McpToolCallError);
    expect(() => callResultValue('docs', 'search', { isError: true, content: [{ type: 'text', text: 'quota exceeded' }] })).toThrow(/MCP tool "search" on server "docs" failed: quota exceeded/);
  });
});
