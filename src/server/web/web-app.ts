import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The policy every page of the web UI is served under: its own scripts, styles and API only. No inline
 * script or style element runs, no other origin is reached, and no page may frame it.
 */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Where `npm run build` puts the UI: `dist/web` of the package, from `src/` and `dist/` alike. */
export function defaultWebRoot(): string {
  return fileURLToPath(new URL('../../../dist/web/', import.meta.url));
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** One file of the built UI, with the precompressed copies the build wrote beside it. */
interface WebFile {
  readonly type: string;
  readonly body: Buffer;
  readonly gzip?: Buffer;
  readonly brotli?: Buffer;
  /** Hashed names under `assets/` never change content: cached for a year. */
  readonly immutable: boolean;
}

function filesUnder(folder: string, prefix = ''): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const relative = `${prefix}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path.join(folder, entry.name), relative) : [relative];
  });
}

function optionalFile(file: string): Buffer | undefined {
  try {
    return statSync(file).isFile() ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The built single-page app, read once into memory: only the files the build wrote are ever served (no
 * path from a request reaches the file system), `assets/` with immutable caching, every other GET a UI
 * route answered with `index.html` (no-cache, so a new build is picked up). Bodies are sent
 * precompressed (brotli, else gzip) to a client that accepts it.
 */
export class WebApp {
  private readonly files = new Map<string, WebFile>();

  private constructor(readonly root: string) {
    for (const name of filesUnder(root)) {
      if (name.endsWith('.gz') || name.endsWith('.br')) continue;
      const full = path.join(root, name);
      const gzip = optionalFile(`${full}.gz`);
      const brotli = optionalFile(`${full}.br`);
      this.files.set(name, {
        type: TYPES[path.extname(name)] ?? 'application/octet-stream',
        body: readFileSync(full),
        ...(gzip === undefined ? {} : { gzip }),
        ...(brotli === undefined ? {} : { brotli }),
        immutable: name.startsWith('/assets/'),
      });
    }
  }

  /** The app built at `root`; undefined when there is none (the UI was not built). */
  static open(root: string): WebApp | undefined {
    return optionalFile(path.join(root, 'index.html')) === undefined ? undefined : new WebApp(root);
  }

  /** Whether `pathname` is the UI's to answer: everything but the API, health checks and MCP. */
  static owns(pathname: string): boolean {
    return !(pathname === '/api' || pathname.startsWith('/api/') || pathname === '/health' || pathname === '/ready' || pathname === '/mcp' || pathname.startsWith('/mcp/'));
  }

  /** Answers a request for one of the UI's paths. */
  serve(request: IncomingMessage, response: ServerResponse, pathname: string): void {
    request.resume();
    const headers: Record<string, string> = {
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      'content-security-policy': WEB_CONTENT_SECURITY_POLICY,
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...headers, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed.');
      return;
    }
    const asset = this.files.get(pathname);
    // A missing asset is an error, never the page: a script tag given HTML would fail obscurely.
    const file = asset ?? (pathname.startsWith('/assets/') || path.extname(pathname) !== '' ? undefined : this.files.get('/index.html'));
    if (file === undefined) {
      response.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Not found.');
      return;
    }
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const [encoding, body] = file.brotli !== undefined && /\bbr\b/.test(accepted) ? ['br', file.brotli] : file.gzip !== undefined && /\bgzip\b/.test(accepted) ? ['gzip', file.gzip] : [undefined, file.body];
    response.writeHead(200, {
      ...headers,
      'content-type': file.type,
      'content-length': String(body.length),
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'Accept-Encoding',
      ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /** The answer when the UI was not built: how to build it. */
  static notBuilt(request: IncomingMessage, response: ServerResponse): void {
    request.resume();
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end('The web UI is not built here: run npm run build (it writes dist/web). The API is at /api/v1.');
  }
}
