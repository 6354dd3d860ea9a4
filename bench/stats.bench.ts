/**
 * `forge stats --all` over 10,000 runs: the old way (every run log in FORGE_HOME/runs opened at once and
 * recomputed from its events) against the new one (the store sums runs, model calls and steps; only
 * the synthesis events are read). One freshly filled FORGE_HOME holds both: each run's log, and the
 * rows the run service and its recorder leave (runs, events, steps, model calls), a few model calls and
 * tool calls a run, a synthesis every 25th run. Median of 3 interleaved rounds; the figures of the
 * two ways are checked to be the same.
 *
 *   npm run build && npm run bench:stats [-- --runs 10000]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { aggregateTotals, readRunLog, totalsFromEvents, type AggregateTotals } from '../src/runs/run-log/index.js';
import { allRunsStats, runLogsStats } from '../src/stats/index.js';
import { openStore } from '../src/adapters/store/index.js';
import { FORGE_BIN } from '../test/support/built-cli.js';
import { fillSyntheticRuns } from '../test/support/synthetic-runs.js';

const runsFlag = process.argv.indexOf('--runs');
const runCount = runsFlag === -1 ? 10_000 : Number(process.argv[runsFlag + 1]);
const rounds = 3;
const run = promisify(execFile);
const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-stats-'));
const database = path.join(home, 'forge.db');
let logFiles: readonly string[] = [];

/** What `forge stats --all` did before: every log of FORGE_HOME/runs read at once (Promise.all), then added up. */
async function oldWay(): Promise<AggregateTotals> {
  const folder = path.join(home, 'runs');
  const files = (await readdir(folder)).filter((name) => name.endsWith('.jsonl')).sort().map((name) => path.join(folder, name));
  const reads = await Promise.all(files.map((file) => readRunLog(file)));
  return aggregateTotals(reads.map((read) => totalsFromEvents(read.events)));
}

async function newWay(): Promise<AggregateTotals> {
  const store = await openStore({ url: database });
  try {
    return (await allRunsStats(store))!.totals;
  } finally {
    await store.close();
  }
}

async function newCommand(): Promise<AggregateTotals> {
  const { stdout } = await run(process.execPath, [FORGE_BIN, 'stats', '--all', '--json'], { env: { PATH: process.env['PATH'] ?? '', FORGE_HOME: home }, maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as AggregateTotals;
}

/** The floor of any command: Node starting and loading the CLI. */
async function versionCommand(): Promise<undefined> {
  await run(process.execPath, [FORGE_BIN, '--version'], { env: { PATH: process.env['PATH'] ?? '' } });
  return undefined;
}

const contenders: [string, () => Promise<AggregateTotals | undefined>][] = [
  ['old: every run log read at once, from events (in process; baseline)', oldWay],
  ['new: the store adds up (in process: open, query, close)', newWay],
  ['new: `forge stats --all --json`, the whole command (process start to exit)', newCommand],
  ['explicit logs: the same logs read 8 at a time (in process; context)', async () => (await runLogsStats(logFiles)).totals],
  ['`forge --version`: Node and the CLI starting, the floor of any command (context)', versionCommand],
];

try {
  const filling = performance.now();
  const written = await fillSyntheticRuns(home, runCount, { unfinished: 3 });
  logFiles = written.logFiles;
  const fillSeconds = (performance.now() - filling) / 1000;
  // Opened once so the figures below time reads, not the one-time schema migration.
  await (await openStore({ url: database })).close();
  const databaseBytes = (await stat(database)).size;

  const samples = contenders.map(() => [] as number[]);
  const figures: AggregateTotals[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, [, measure]] of contenders.entries()) {
      const started = performance.now();
      const totals = await measure();
      samples[index]!.push(performance.now() - started);
      if (round === 0 && totals !== undefined) figures.push(totals);
    }
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const baseline = median(samples[0]!);
  const same = figures.every((totals) => JSON.stringify(comparable(totals)) === JSON.stringify(comparable(figures[0]!)));
  process.stdout.write(
    `forge stats --all over ${written.runs.toLocaleString('en')} runs (${written.events.toLocaleString('en')} events; database ${(databaseBytes / 1e6).toFixed(0)} MB, filled in ${fillSeconds.toFixed(1)} s), median of ${rounds}\n\n` +
      '| contender | ms | ratio to old |\n|---|---|---|\n',
  );
  for (const [index, [name]] of contenders.entries()) {
    const value = median(samples[index]!);
    process.stdout.write(`| ${name} | ${value.toFixed(0)} | ${(value / baseline).toFixed(3)}× |\n`);
  }
  process.stdout.write(`\nsame figures from every way of adding up (costs to 12 decimals): ${same ? 'yes' : 'NO'}\n`);
  if (!same) process.exitCode = 1;
} finally {
  await rm(home, { recursive: true, force: true });
}

/** The figures every contender reports (the command's JSON adds `files` and `errors`), dollars to 12 decimals. */
function comparable(totals: AggregateTotals): unknown {
  const { runs, llm_calls, tokens, cost_usd, halts_by_reason, tool_calls, tool_errors, per_model, synthesis } = totals;
  return JSON.parse(JSON.stringify({ runs, llm_calls, tokens, cost_usd, halts_by_reason, tool_calls, tool_errors, per_model, synthesis }), (key, value: unknown) =>
    key === 'cost_usd' && typeof value === 'number' ? Number(value.toFixed(12)) : value,
  );
}
