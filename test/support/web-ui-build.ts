import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_ROOT = path.join(root, 'dist', 'web');

function newest(folder: string): number {
  let time = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return time;
}

/** Builds dist/web with Vite when it is missing or older than web/ (the suite's global setup calls it once). */
export async function ensureBuiltWebUi(): Promise<void> {
  let built: number;
  try {
    built = statSync(path.join(WEB_ROOT, 'index.html')).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = Math.max(newest(path.join(root, 'web')), statSync(path.join(root, 'src', 'core', 'events.ts')).mtimeMs);
  if (built >= sources) return;
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'web', 'vite.config.ts'), logLevel: 'warn' });
}
