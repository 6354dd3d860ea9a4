export { apiRoutes } from './api-routes.js';
export { ApiError, type ApiRoute, type ApiServerState, type AuthMode, type RouteAccess } from './api-route.js';
export { chooseAuthMode } from './auth-mode.js';
export { MCP_SCOPES } from './mcp-access.js';
export { createApi } from './create-api.js';
export { openApiDocument } from './openapi.js';
export { DEFAULT_API_PORT, serveApi, type ApiServer, type ApiServerOptions } from './serve-api.js';
