import type { Command } from 'commander';
import type { DemoReport, DemoRow } from '../../demo/index.js';
import { EXIT, reportError } from '../command-errors.js';

function table(rows: readonly DemoRow[]): string {
  const header = ['run', 'topic', 'model calls', 'tokens in/out', 'time', 'page read', 'chosen by'];
  const lines = rows.map((row) => [
    row.kind,
    row.topic,
    String(row.llm_calls),
    `${row.tokens.input}/${row.tokens.output}`,
    `${Math.round(row.duration_ms)} ms`,
    row.url === null ? '-' : new URL(row.url).host.replace(/:\d+$/, '') + new URL(row.url).pathname,
    row.strategy ?? 'the model',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}

function narrative(report: DemoReport): string {
  const [agent, ...replays] = report.rows;
  const replayCalls = replays.reduce((total, row) => total + row.llm_calls, 0);
  const replayTokens = replays.reduce((total, row) => total + row.tokens.input + row.tokens.output, 0);
  return `
Forge demo: pay for reasoning once, replay for free.

1. A full agent run on "${agent!.topic}". Its model answers come from a RECORDED MODEL SESSION
   (a cassette bundled with Forge), replayed turn by turn; the tools ran live against a small
   fixture web served on 127.0.0.1 for the length of the demo. No key, no network.
2. That run was saved as the skill "${report.skill}": the topic became {{topic}}, the URL it read
   stayed bound to the search result it came from.
3. The skill replayed on ${replays.length} other topics, choosing each official documentation page again
   from fresh search results.

${table(report.rows)}

Full agent: ${agent!.llm_calls} model calls, ${agent!.tokens.input + agent!.tokens.output} tokens.   ${replays.length} replays: ${replayCalls} model calls, ${replayTokens} tokens.

Everything is stored under ${report.home}. Next:
  FORGE_HOME=${report.home} npx forge skill show ${report.skill}
  FORGE_HOME=${report.home} npx forge skill test ${report.skill}      (offline, against the recording)
  npx forge run "<your task>"        (with a model configured: see npx forge run --help)
`;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('The skill lifecycle, offline: a recorded agent run, saved as a skill, replayed on three other topics with model calls and tokens side by side.')
    .option('--json', 'print the comparison as JSON')
    .option('--trace', 'also print every event of every run as it happens (on stderr)')
    .addHelpText(
      'after',
      `
The demo serves a bundled fixture web (twelve projects with docs, code-host release pages and spam,
plus a SearXNG-format search engine) on 127.0.0.1, pins its host names there for the SSRF guard, and
uses its own data folder, FORGE_HOME/demo. The first run's model is a recorded session (a cassette),
so it needs no key; the replays need no model at all.`,
    )
    .action(async (options: { json?: boolean; trace?: boolean }) => {
      const json = options.json === true;
      try {
        // Loaded on use, so `forge --help` and other commands start fast.
        const { runLifecycleDemo } = await import('../../demo/index.js');
        const { formatEventLine } = await import('../event-line/index.js');
        const report = await runLifecycleDemo(process.env, options.trace === true ? { onEvent: (event) => process.stderr.write(`${formatEventLine(event)}\n`) } : {});
        process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : narrative(report));
        process.exitCode = report.rows.every((row) => row.status === 'completed') ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
