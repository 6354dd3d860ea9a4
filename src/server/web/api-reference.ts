import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Where the API reference is served; the document it renders is `/api/v1/openapi.json`. */
export const API_REFERENCE_PATH = '/docs/api';

/**
 * The reference page's policy: the viewer's own script and styles from this server, the document from
 * the API, nothing from elsewhere. Swagger UI sets element styles from its script, hence inline styles.
 */
export const API_REFERENCE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Forge API reference</title>
<link rel="icon" type="image/png" href="${API_REFERENCE_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATH}/reference.js"></script>
</body>
</html>
`;

/** Starts the viewer on the API's own document; "try it out" sends requests to this server only. */
const STARTER = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
});
`;

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/**
 * The OpenAPI document rendered for people at `/docs/api` by Swagger UI (the `swagger-ui-dist` package,
 * served from this server: no CDN, works offline). The viewer's files are read once, when first asked for.
 */
export class ApiReference {
  private assets: ReadonlyMap<string, Asset> | undefined;

  static owns(pathname: string): boolean {
    return pathname === API_REFERENCE_PATH || pathname === `${API_REFERENCE_PATH}/` || pathname.startsWith(`${API_REFERENCE_PATH}/`);
  }

  serve(request: IncomingMessage, response: ServerResponse, pathname: string): void {
    request.resume();
    const headers = {
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      'content-security-policy': API_REFERENCE_CONTENT_SECURITY_POLICY,
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...headers, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed.');
      return;
    }
    const asset = this.loaded().get(pathname.replace(/\/$/, ''));
    if (asset === undefined) {
      response.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`Not found. The API reference is at ${API_REFERENCE_PATH}.`);
      return;
    }
    response.writeHead(200, { ...headers, 'content-type': asset.type, 'content-length': String(asset.body.length), 'cache-control': 'no-cache' });
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  }

  private loaded(): ReadonlyMap<string, Asset> {
    if (this.assets === undefined) {
      const viewer = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      this.assets = new Map<string, Asset>([
        [API_REFERENCE_PATH, { type: 'text/html; charset=utf-8', body: Buffer.from(PAGE) }],
        [`${API_REFERENCE_PATH}/reference.js`, { type: 'text/javascript; charset=utf-8', body: Buffer.from(STARTER) }],
        [`${API_REFERENCE_PATH}/swagger-ui-bundle.js`, { type: 'text/javascript; charset=utf-8', body: readFileSync(path.join(viewer, 'swagger-ui-bundle.js')) }],
        [`${API_REFERENCE_PATH}/swagger-ui.css`, { type: 'text/css; charset=utf-8', body: readFileSync(path.join(viewer, 'swagger-ui.css')) }],
        [`${API_REFERENCE_PATH}/favicon-32x32.png`, { type: 'image/png', body: readFileSync(path.join(viewer, 'favicon-32x32.png')) }],
      ]);
    }
    return this.assets;
  }
}
