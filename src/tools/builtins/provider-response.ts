import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import { ToolExecutionError, type GuardedResponse } from '../../core/index.js';

/**
 * Reads a search provider's JSON answer into `schema`. A non-2xx status, a body cut at the byte cap,
 * invalid JSON or an unexpected shape become a `ToolExecutionError` naming the provider; any of
 * `secrets` echoed back in the body is redacted before it can reach a message.
 */
export function readProviderJson<Schema extends z.ZodType>(
  response: GuardedResponse,
  providerLabel: string,
  schema: Schema,
  secrets: readonly string[],
  statusAdvice: Readonly<Record<number, string>> = {},
): z.infer<Schema> {
  const text = redact(response.text(), secrets);
  if (response.status < 200 || response.status > 299) {
    const advice = statusAdvice[response.status];
    const excerpt = text.trim().slice(0, 300);
    throw new ToolExecutionError(
      'web_search',
      `${providerLabel} answered HTTP ${response.status} (${STATUS_CODES[response.status] ?? 'unknown status'})${excerpt === '' ? '' : `: ${excerpt}`}${advice === undefined ? '' : `. ${advice}`}`,
    );
  }
  if (response.truncated) throw new ToolExecutionError('web_search', `${providerLabel} sent a response larger than the byte cap; it was not parsed.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ToolExecutionError('web_search', `${providerLabel} did not answer with JSON (content type ${response.headers['content-type'] ?? 'none'}).`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolExecutionError('web_search', `${providerLabel} answered in an unexpected shape (${issue === undefined ? 'unknown' : `${issue.path.join('.')}: ${issue.message}`}).`);
  }
  return parsed.data;
}

function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((current, secret) => (secret === '' ? current : current.split(secret).join('[redacted]')), text);
}

/** `base` with `path` appended, keeping any path the base already has (e.g. a SearXNG under /searx). */
export function endpointUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  return url;
}
