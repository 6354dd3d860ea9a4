import type { ForgeRuntime } from '../../compose/index.js';
import type { ExposedToolSource } from './exposed-tool-source.js';
import { createForgeMcpServer } from './forge-mcp-server.js';
import { createRegistryToolSource } from './registry-tool-source.js';
import { createSkillToolSource } from './skill-tool-source.js';
import { StreamableHttpEndpoint, type StreamableHttpEndpointOptions } from './streamable-http-endpoint.js';

export interface RuntimeMcpEndpointOptions {
  /** Registry tools to expose, by exact name; nothing is exposed unless named. */
  readonly exposedTools: readonly string[];
  /** Skills to publish, by name, each as the tool `skill_{name}`; nothing is published unless named. */
  readonly publishedSkills?: readonly string[];
  /** More sources (promoted synthesized tools, when they land) after the registry's and the skills'. */
  readonly extraSources?: readonly ExposedToolSource[];
  /** Session bounds (see `StreamableHttpEndpoint`); Host, Origin and token are checked by `listenHttp`. */
  readonly sessions?: Pick<StreamableHttpEndpointOptions, 'maxSessions' | 'sessionIdleMs'>;
  readonly version: string;
}

/**
 * Forge's MCP endpoint over a runtime: exposed registry tools and published skills. Every call is a
 * run request submitted to the runtime's front door (`runs.submit`), a run of the run service (a `runs` row, a run log, stored events) through its dispatch (its
 * policy, approvals, guarded fetch), of the caller's account (the operator's on a server without
 * accounts); a skill replay marks the skill stale like any replay.
 */
export function createRuntimeMcpEndpoint(runtime: ForgeRuntime, options: RuntimeMcpEndpointOptions): StreamableHttpEndpoint {
  const registrySource = createRegistryToolSource({
    registry: runtime.registry,
    exposed: options.exposedTools,
    call: async (name, args, signal, userId) => (await (await runtime.runs.submit({ kind: 'tool_call', tool: name, input: args }, { userId }, { signal })).result()).outcome,
  });
  const skillSource = createSkillToolSource({
    skills: runtime.store.skills,
    published: options.publishedSkills ?? [],
    // Through the front door: in the scaled mode the replay runs on a worker, as the API's do.
    replay: async (reference, inputs, signal, userId) => (await runtime.runs.submit({ kind: 'skill_replay', skill: reference, inputs }, { userId }, { signal })).result(),
    firstAdminId: () => runtime.accounts.firstAdminId(),
  });
  const sources = [registrySource, skillSource, ...(options.extraSources ?? [])];
  return new StreamableHttpEndpoint({
    createServer: () => createForgeMcpServer({ sources, name: 'forge', version: options.version }),
    ...options.sessions,
  });
}
