/**
 * How long a command takes from spawn to exit, against a bare `node -e ""` (the floor no command can beat).
 * `forge --version` loads only the CLI; `forge tools list` opens the whole runtime (store, registry,
 * toolbox, MCP manager) and closes it. Median of 15 runs each, interleaved, on a fresh FORGE_HOME.
 *
 *   npm run build && npm run bench:startup
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FORGE_BIN } from '../test/support/built-cli.js';

const run = promisify(execFile);
const runs = 15;
const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-startup-'));
const env = { PATH: process.env['PATH'] ?? '', FORGE_HOME: home };

const contenders = [
  ['node -e "" (bare Node.js start, the floor)', ['-e', '']],
  ['forge --version (CLI only)', [FORGE_BIN, '--version']],
  ['forge tools list (opens and closes the runtime)', [FORGE_BIN, 'tools', 'list']],
] as const;

async function timeOnce(args: readonly string[]): Promise<number> {
  const started = performance.now();
  await run(process.execPath, [...args], { env, timeout: 30_000 });
  return performance.now() - started;
}

const samples = contenders.map(() => [] as number[]);
for (const [, args] of contenders) await timeOnce(args);
for (let round = 0; round < runs; round += 1) {
  for (const [index, [, args]] of contenders.entries()) samples[index]!.push(await timeOnce(args));
}
await rm(home, { recursive: true, force: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const floor = median(samples[0]!);
process.stdout.write(`command start to exit, median of ${runs}\n\n| command | ms | ratio to bare node |\n|---|---|---|\n`);
for (const [index, [name]] of contenders.entries()) {
  const value = median(samples[index]!);
  process.stdout.write(`| ${name} | ${value.toFixed(0)} | ${(value / floor).toFixed(2)}× |\n`);
}
