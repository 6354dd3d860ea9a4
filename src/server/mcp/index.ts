export { BoundedEventStore } from './bounded-event-store.js';
export type { ExposedTool, ExposedToolResult, ExposedToolSource } from './exposed-tool-source.js';
export { createForgeMcpServer, type ForgeMcpServerOptions } from './forge-mcp-server.js';
export { createRegistryToolSource, type RegistryToolSourceOptions } from './registry-tool-source.js';
export { createRuntimeMcpEndpoint, type RuntimeMcpEndpointOptions } from './runtime-mcp-endpoint.js';
export { createSkillToolSource, skillToolName, type SkillToolSourceOptions } from './skill-tool-source.js';
export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './session-limits.js';
export { StreamableHttpEndpoint, type SessionServer, type StreamableHttpEndpointOptions } from './streamable-http-endpoint.js';
