import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const FORGE_BIN = path.join(root, 'bin', 'forge.js');
const entry = path.join(root, 'dist', 'cli', 'main.js');

function newestSourceTime(folder: string): number {
  let newest = 0;
  for (const name of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, name.name);
    if (name.isDirectory()) newest = Math.max(newest, newestSourceTime(full));
    else if (!/\.test\.tsx?$/.test(name.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ when it is missing or older than src/, so tests drive the real binary as users get it.
 * Called once for the whole suite by global-setup.ts (`npm test` has already built, so it is a no-op there).
 */
export function ensureBuiltCli(): string {
  let built: number;
  try {
    built = statSync(entry).mtimeMs;
  } catch {
    built = 0;
  }
  if (built < newestSourceTime(path.join(root, 'src'))) {
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
  return FORGE_BIN;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

let scratchHome: string | undefined;

/**
 * A temporary folder this test process uses as HOME for every CLI it spawns without one, so no test
 * can read or write the real `~/.forge` (the default Forge home); removed when the process exits.
 */
export function scratchUserHome(): string {
  if (scratchHome === undefined) {
    const created = mkdtempSync(path.join(tmpdir(), 'forge-test-user-home-'));
    scratchHome = created;
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  return scratchHome;
}

/**
 * Runs `forge …` with exactly `env` (plus PATH, and HOME set to `scratchUserHome()` unless `env` sets
 * it), bounded by `timeoutMs`, in `cwd` (default the test's), with `input` on stdin (default none).
 */
export function runCli(args: readonly string[], env: Record<string, string>, options: { timeoutMs?: number; cwd?: string; input?: string; onSpawn?: (child: ReturnType<typeof spawn>) => void } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FORGE_BIN, ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: scratchUserHome(), ...env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] as ['ignore' | 'pipe', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}
