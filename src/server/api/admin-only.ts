import { ApiError, type RouteContext } from './api-route.js';

/**
 * Refuses (403 `AdminOnly`) a request that changes what is the whole installation's (the policy, agent
 * definitions, the toolbox, MCP connections) unless an admin (or the operator of a server without
 * accounts) makes it. `why` says what it is and why it is theirs.
 */
export function requireAdmin(context: RouteContext, why: string, hint = 'Ask an admin of this server.'): void {
  if (context.principal?.role !== 'admin') throw new ApiError(403, 'AdminOnly', why, hint);
}
