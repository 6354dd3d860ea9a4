/**
 * The test suite's health check (issue 27): `npm test` must pass twice in a row while the machine is
 * loaded by another `npm test` running at the same time, with PostgreSQL and Redis shared by both (each
 * suite isolates itself with its own schema and key prefix).
 *
 * Clones the committed HEAD into two scratch folders, installs each (`npm install`, which builds once),
 * then runs, at the same time: suite A twice in a row, and suite B once. Prints each suite's exit code
 * and wall time, and, for comparison, the idle time of suite A when asked (IDLE=1 runs it alone first).
 *
 *   npm run bench:suite-under-load        (about 3 × the suite's time on a 2-core machine; IDLE=1 adds one more)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Outcome {
  readonly label: string;
  readonly code: number | null;
  readonly seconds: number;
  readonly tail: string;
}

function sh(label: string, command: string, args: readonly string[], cwd: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ label, code, seconds: (performance.now() - started) / 1000, tail: output.slice(-3_000) }));
  });
}

async function prepared(scratch: string, name: string): Promise<string> {
  const folder = path.join(scratch, name);
  const clone = await sh(`clone ${name}`, 'git', ['clone', '--quiet', root, folder], scratch);
  if (clone.code !== 0) throw new Error(`git clone failed:\n${clone.tail}`);
  const install = await sh(`install ${name}`, 'npm', ['install', '--no-audit', '--no-fund'], folder);
  if (install.code !== 0) throw new Error(`npm install in ${name} failed:\n${install.tail}`);
  return folder;
}

const scratch = await mkdtemp(path.join(tmpdir(), 'forge-suite-under-load-'));
try {
  const [a, b] = await Promise.all([prepared(scratch, 'a'), prepared(scratch, 'b')]);
  const outcomes: Outcome[] = [];
  if (process.env['IDLE'] === '1') outcomes.push(await sh('A alone (idle baseline)', 'npm', ['test'], a));
  const loaded = sh('B once, alongside A', 'npm', ['test'], b);
  outcomes.push(await sh('A, first run under load', 'npm', ['test'], a));
  outcomes.push(await sh('A, second run under load', 'npm', ['test'], a));
  outcomes.push(await loaded);

  const idle = outcomes.find((outcome) => outcome.label.startsWith('A alone'));
  console.log('\nnpm test under load (2 suites at once on one machine)\n');
  console.log(`${'suite'.padEnd(30)} ${'exit'.padStart(5)} ${'wall s'.padStart(8)} ${idle === undefined ? '' : 'vs idle'.padStart(8)}`);
  for (const outcome of outcomes) {
    const ratio = idle === undefined ? '' : `${(outcome.seconds / idle.seconds).toFixed(2)}×`.padStart(8);
    console.log(`${outcome.label.padEnd(30)} ${String(outcome.code).padStart(5)} ${outcome.seconds.toFixed(0).padStart(8)} ${ratio}`);
  }
  const failed = outcomes.filter((outcome) => outcome.code !== 0);
  for (const outcome of failed) console.log(`\n--- ${outcome.label}: the end of its output ---\n${outcome.tail}`);
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  await rm(scratch, { recursive: true, force: true });
}
