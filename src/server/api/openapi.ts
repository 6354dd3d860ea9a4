import { z } from 'zod';
import { FORGE_VERSION } from '../../version.js';
import { errorBodySchema } from '../../contract/index.js';
import { apiRoutes } from './api-routes.js';

function jsonSchema(schema: z.ZodType): unknown {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
}

/** The OpenAPI 3.1 document of the API, built from the route table and the same zod schemas that validate it. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRoutes) {
    const path = (route.root === true ? route.path : `/api/v1${route.path}`).replace(/:([a-z_]+)/g, '{$1}');
    const parameters = [...path.matchAll(/\{([a-z_]+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
    const success =
      route.response === 'event-stream'
        ? { description: 'Server-Sent Events; id = seq', content: { 'text/event-stream': { schema: { type: 'string' } } } }
        : route.response === 'ndjson'
          ? { description: 'JSON lines', content: { 'application/x-ndjson': { schema: { type: 'string' } } } }
          : { description: 'OK', content: { 'application/json': { schema: jsonSchema(route.response) } } };
    paths[path] ??= {};
    paths[path]![route.method] = {
      summary: route.summary,
      ...(parameters.length === 0 ? {} : { parameters }),
      ...(route.body === undefined ? {} : { requestBody: { required: false, content: { 'application/json': { schema: jsonSchema(route.body) } } } }),
      responses: {
        [String(route.status ?? 200)]: success,
        default: { description: 'An error', content: { 'application/json': { schema: jsonSchema(errorBodySchema) } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Forge API', version: FORGE_VERSION, description: 'Runs, their events, and approvals. Every error is {"error": {name, message, hint}}.' },
    paths,
  };
}
