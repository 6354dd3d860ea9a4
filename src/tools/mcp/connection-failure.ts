import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ForgeError, NetworkError } from '../../core/index.js';
import { McpConnectionError } from './mcp-errors.js';

/**
 * Any failure to reach or keep a server, as an `McpConnectionError` that says whether retrying can
 * help: a refusal by Forge itself (the SSRF guard, stdio not allowed, a key that cannot open the
 * stored headers) or refused credentials (HTTP 401 or 403) will not change by waiting, so those are
 * permanent; anything else (refused connection, unresolved name, timeout, server error, an expired
 * session's 404) is worth another attempt.
 */
export function connectionFailure(serverName: string, error: unknown): McpConnectionError {
  if (error instanceof McpConnectionError) return error;
  // Forge's own refusals (the guard, a stdio refusal, a configuration or secret-box error) stand until
  // the user changes something; a NetworkError (a name that did not resolve) may pass with time.
  if (ForgeError.isInstance(error) && !(error instanceof NetworkError)) {
    return new McpConnectionError({ serverName, message: error.message, permanent: true, ...(error.hint === undefined ? {} : { hint: error.hint }), cause: error });
  }
  if (error instanceof UnauthorizedError) {
    return new McpConnectionError({
      serverName,
      message: 'the server requires authorization',
      permanent: true,
      hint: 'Add the credentials the server expects as headers, e.g. forge mcp add <name> <url> --header "Authorization=Bearer <token>".',
      cause: error,
    });
  }
  const status = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  const permanent = status === 401 || status === 403;
  return new McpConnectionError({ serverName, message: describeCause(error), permanent, cause: error });
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
