import { ConfigurationError } from '../core/index.js';

/** `slug` or `slug@version`, as `forge run --agent` and `forge agent show` take it. */
export interface AgentReference {
  readonly slug: string;
  /** Absent: the agent's active version. */
  readonly version?: number;
}

export function parseAgentReference(text: string): AgentReference {
  const match = /^([a-z0-9][a-z0-9-]{0,62})(?:@([1-9][0-9]{0,8}))?$/.exec(text.trim());
  if (match === null) throw new ConfigurationError('agent', `"${text}" is not an agent slug, or slug@version.`, 'e.g. researcher or researcher@2 (see `forge agent list`).');
  return { slug: match[1]!, ...(match[2] === undefined ? {} : { version: Number(match[2]) }) };
}
