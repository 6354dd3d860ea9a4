import { randomBytes } from 'node:crypto';
import { createRunEmitter } from '../../events/index.js';
import type { ForgeRuntime } from '../../runtime/index.js';
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
 * Forge's MCP endpoint over a runtime: exposed registry tools and published skills. Every call goes
 * through the runtime's dispatch (its policy, approvals, guarded fetch), and is recorded on the
 * runtime's event bus under its own run id.
 */
export function createRuntimeMcpEndpoint(runtime: ForgeRuntime, options: RuntimeMcpEndpointOptions): StreamableHttpEndpoint {
  const registrySource = createRegistryToolSource({
    registry: runtime.registry,
    exposed: options.exposedTools,
    environment: (signal) => {
      const emitter = createRunEmitter(runtime.bus, `mcp-${randomBytes(6).toString('hex')}`);
      return {
        registry: runtime.registry,
        policy: runtime.policy,
        approvals: runtime.approvals,
        emitter,
        context: { runId: emitter.runId, signal, fetch: runtime.fetch, utilityModel: undefined },
      };
    },
  });
  const skillSource = createSkillToolSource({
    skills: runtime.store.skills,
    published: options.publishedSkills ?? [],
    registry: runtime.registry,
    policy: runtime.policy,
    approvals: runtime.approvals,
    bus: runtime.bus,
    fetch: runtime.fetch,
  });
  const sources = [registrySource, skillSource, ...(options.extraSources ?? [])];
  return new StreamableHttpEndpoint({
    createServer: () => createForgeMcpServer({ sources, name: 'forge', version: options.version }),
    ...options.sessions,
  });
}
