import type { IncomingMessage } from 'node:http';
import type { Authenticator } from './authenticator.js';

/** The scope a caller of Forge's MCP endpoint needs: it calls tools and skills. */
export const MCP_SCOPE = 'tools:write';

/**
 * Why a request to `/mcp` on a server with accounts is refused, or undefined when it may go on. MCP
 * clients authenticate with a service key (`X-API-Key`) or an access token (`Authorization: Bearer`);
 * a browser's cookie is not accepted here, so no page of another site can drive the tools.
 */
export async function mcpPrincipalRefusal(request: IncomingMessage, authenticate: Authenticator): Promise<{ status: 401 | 403; message: string } | undefined> {
  const headers = new Headers();
  for (const name of ['x-api-key', 'authorization'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  // GET: the principal is resolved from its credentials only; the MCP request itself is read by the endpoint.
  const principal = await authenticate(new Request('http://mcp.invalid/mcp', { headers }), MCP_SCOPE);
  if (principal === undefined) return { status: 401, message: 'Unauthorized: send a service key as X-API-Key (or an access token as Authorization: Bearer).' };
  if (!principal.scopes.includes(MCP_SCOPE)) return { status: 403, message: `Forbidden: this key lacks the scope ${MCP_SCOPE}.` };
  return undefined;
}
