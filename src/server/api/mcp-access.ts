import type { IncomingMessage } from 'node:http';
import type { ApiScope, Principal } from '../../core/index.js';
import type { Authenticator } from './authenticator.js';

/**
 * The scopes that open Forge's MCP endpoint: one to call exposed tools, one to run published skills.
 * A caller holding either gets in; each tool then checks its own (see the MCP tool sources).
 */
export const MCP_SCOPES: readonly ApiScope[] = ['tools:write', 'skills:run'];

/**
 * Who a request to `/mcp` on a server with accounts acts as, or why it is refused. MCP clients
 * authenticate with a service key (`X-API-Key`) or an access token (`Authorization: Bearer`), checked
 * on every request (a key revoked or expired during a session stops working at once); a browser's
 * cookie is not accepted here, so no page of another site can drive the tools.
 */
export async function mcpPrincipal(request: IncomingMessage, authenticate: Authenticator): Promise<{ principal: Principal } | { refusal: { status: 401 | 403; message: string } }> {
  const headers = new Headers();
  for (const name of ['x-api-key', 'authorization'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  // GET: the principal is resolved from its credentials only; the MCP request itself is read by the endpoint.
  const principal = await authenticate(new Request('http://mcp.invalid/mcp', { headers }), MCP_SCOPES[0]!);
  if (principal === undefined) return { refusal: { status: 401, message: 'Unauthorized: send a service key as X-API-Key (or an access token as Authorization: Bearer).' } };
  if (!MCP_SCOPES.some((scope) => principal.scopes.includes(scope))) return { refusal: { status: 403, message: `Forbidden: this key has neither of the scopes ${MCP_SCOPES.join(' and ')}.` } };
  return { principal };
}
