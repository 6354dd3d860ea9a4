import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpToolCallError } from './mcp-errors.js';

/** Binary content (an image or audio clip) as the model sees it: described and fingerprinted, never inlined. */
export interface BinaryReference {
  readonly type: 'image' | 'audio';
  readonly mime_type: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** One content item of a remote result, in Forge's terms. */
export type ContentValue = string | BinaryReference | { readonly type: 'resource'; readonly uri: string; readonly mime_type?: string; readonly text?: string; readonly name?: string };

/** A remote result that is more than plain text. */
export interface StructuredCallValue {
  readonly content: readonly ContentValue[];
  /** The tool's `structuredContent`, when it returned any. */
  readonly structured?: Record<string, unknown>;
}

/**
 * Turns an MCP tool result into the value a Forge tool returns. Text-only results become one string
 * (items joined by blank lines), so models read them as a native tool's text; anything else keeps its
 * items in order with images and audio as references (type, size, SHA-256) rather than base64, which
 * would only burn the model's context. A result flagged `isError` throws `McpToolCallError` with the
 * server's text, so dispatch reports it as a tool error.
 */
export function callResultValue(serverName: string, toolName: string, result: CallToolResult): string | StructuredCallValue {
  const content = result.content.map(contentValue);
  if (result.isError === true) {
    const text = content.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n\n');
    throw new McpToolCallError({ serverName, toolName, message: text === '' ? 'the tool reported an error without a message' : text });
  }
  if (result.structuredContent === undefined && content.every((item) => typeof item === 'string')) return content.join('\n\n');
  return result.structuredContent === undefined ? { content } : { content, structured: result.structuredContent };
}

function contentValue(item: CallToolResult['content'][number]): ContentValue {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return binaryReference(item.type, item.mimeType, item.data);
    case 'resource_link':
      return { type: 'resource', uri: item.uri, name: item.name, ...(item.mimeType === undefined ? {} : { mime_type: item.mimeType }) };
    case 'resource': {
      const { resource } = item;
      const mime = resource.mimeType === undefined ? {} : { mime_type: resource.mimeType };
      if ('text' in resource && typeof resource.text === 'string') return { type: 'resource', uri: resource.uri, ...mime, text: resource.text };
      return { type: 'resource', uri: resource.uri, ...mime };
    }
  }
}

function binaryReference(type: 'image' | 'audio', mimeType: string, base64: string): BinaryReference {
  const data = Buffer.from(base64, 'base64');
  return { type, mime_type: mimeType, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}
