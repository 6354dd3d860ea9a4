export * from './api-schemas.js';
export { apiRoutes, type ApiRoute } from './api-routes.js';
export { createApi } from './create-api.js';
export { openApiDocument } from './openapi.js';
export { DEFAULT_API_PORT, serveApi, type ApiServer, type ApiServerOptions } from './serve-api.js';
