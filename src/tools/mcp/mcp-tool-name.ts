import { createHash } from 'node:crypto';
import { TOOL_NAME_PATTERN } from '../../core/index.js';

/**
 * Server names: lower-case letters, digits and single hyphens, at most 32 characters. They cannot
 * contain `_`, so the `__` after `mcp__{server}` always marks where the server name ends.
 */
export const MCP_SERVER_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MCP_SERVER_NAME_MAX_LENGTH = 32;

const maxNameLength = 64;
const hashLength = 10;

/**
 * The registry name of a remote tool: `mcp__{server}__{tool}`.
 *
 * When that name is longer than 64 characters, or holds a character registry names refuse (MCP allows
 * `.`), it becomes `mcp__{server}__{prefix}-{hash}`: `{hash}` is the first 10 hex digits of SHA-256 over
 * `{server}/{tool}` (the original names), and `{prefix}` is the tool name with refused characters turned
 * into `_`, cut so the whole name fits in 64. The short form depends only on the two names, so it is the
 * same on every machine and after every restart. Distinct tools get distinct names unless 40 bits of
 * SHA-256 collide; the connection manager checks anyway and refuses the second tool with an error
 * rather than let it replace the first.
 */
export function mcpToolName(serverName: string, toolName: string): string {
  const full = `mcp__${serverName}__${toolName}`;
  if (TOOL_NAME_PATTERN.test(full)) return full;
  const hash = createHash('sha256').update(`${serverName}/${toolName}`).digest('hex').slice(0, hashLength);
  const prefix = `mcp__${serverName}__`;
  const room = maxNameLength - prefix.length - hash.length - 1;
  const cleaned = toolName.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, Math.max(0, room));
  return `${prefix}${cleaned}-${hash}`;
}
