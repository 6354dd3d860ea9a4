import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, '..', 'dist', 'web');

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(folder, entry.name)) : [path.join(folder, entry.name)]));
}

/** Writes `.br` and `.gz` beside every text asset, so `forge serve` sends them compressed without compressing per request. */
function precompress(): Plugin {
  return {
    name: 'forge-precompress',
    apply: 'build',
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!/\.(js|css|html|svg|json|webmanifest)$/.test(file)) continue;
        const body = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/** The web UI: built into dist/web by `npm run build`, served by `forge serve` at `/`. */
export default defineConfig({
  root: here,
  base: '/',
  plugins: [react(), tailwindcss(), precompress()],
  // `npm run dev:web`: the API of a running `forge serve` (FORGE_URL), reached as the same origin (no Origin header to refuse).
  server: {
    proxy: {
      '/api': {
        target: process.env['FORGE_URL'] ?? 'http://127.0.0.1:7700',
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReq', (request) => request.removeHeader('origin')),
      },
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
