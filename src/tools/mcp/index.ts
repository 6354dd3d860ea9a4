export { callResultValue, type BinaryReference, type ContentValue, type StructuredCallValue } from './call-result-value.js';
// The client transport and connection load the MCP SDK; the manager loads them when a server connects.
export type { ClientTransportOptions, McpEndpoint, StdioPermission } from './client-transport.js';
export { inputSchemaFromJsonSchema, type JsonSchemaObject } from './json-schema-input.js';
export type { McpClientConnectionOptions, McpConnectionListener } from './mcp-client-connection.js';
export { McpConnectionManager, type HeaderSealer, type McpConnectionManagerOptions, type McpServerDefinition } from './mcp-connection-manager.js';
export { McpConnectionError, McpStdioRefusedError, McpToolCallError } from './mcp-errors.js';
export type { McpConnectionState, McpRegisteredTool, McpServerStatus } from './mcp-server-status.js';
export { MCP_SERVER_NAME_MAX_LENGTH, MCP_SERVER_NAME_PATTERN, mcpToolName } from './mcp-tool-name.js';
export { DEFAULT_RECONNECT_BACKOFF, reconnectDelayMs, type ReconnectBackoff } from './reconnect-backoff.js';
export { createRemoteTool, type RemoteCall } from './remote-tool.js';
