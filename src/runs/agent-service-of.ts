import type { AgentService } from '../agents/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';

const services = new WeakMap<ForgeRuntime, Promise<AgentService>>();

/**
 * The runtime's agent definitions service, loaded on first use: the template engine and the YAML
 * reader it brings cost a quarter of a second to load, which commands that never touch an agent
 * should not pay.
 */
export function agentServiceOf(runtime: ForgeRuntime): Promise<AgentService> {
  let service = services.get(runtime);
  if (service === undefined) {
    service = import('../agents/index.js').then(({ AgentService }) => new AgentService({ store: runtime.store.agents, policies: runtime.policies }));
    services.set(runtime, service);
  }
  return service;
}
