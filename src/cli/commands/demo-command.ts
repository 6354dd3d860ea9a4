import type { Command } from 'commander';
import type { ForgeEvent } from '../../core/index.js';
import type { DemoReport, DemoRow, ToolboxDemoReport } from '../../demo/index.js';
import { EXIT, reportError } from '../command-errors.js';
import { formatQuantity } from '../event-line/index.js';
import { printError, printJson, printOut } from '../terminal-output.js';

function table(header: readonly string[], lines: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}

function lifecycleTable(rows: readonly DemoRow[]): string {
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
  return table(header, lines);
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

${lifecycleTable(report.rows)}

Full agent: ${formatQuantity(agent!.llm_calls, 'model call')}, ${formatQuantity(agent!.tokens.input + agent!.tokens.output, 'token')}.   ${formatQuantity(replays.length, 'replay')}: ${formatQuantity(replayCalls, 'model call')}, ${formatQuantity(replayTokens, 'token')}.

Everything is stored under ${report.home}. Next:
  FORGE_HOME=${report.home} npx forge skill show ${report.skill}
  FORGE_HOME=${report.home} npx forge skill test ${report.skill}      (offline, against the recording)
  npx forge run "<your task>"        (with a model configured: see npx forge run --help)
`;
}

function toolboxNarrative(report: ToolboxDemoReport): string {
  const [first, second] = report.rows;
  const header = ['run', 'topic', 'tools written', 'drafts caught', 'tool calls', 'model calls', 'tokens in/out', 'time', 'answer'];
  const lines = report.rows.map((row, index) => [
    index === 0 ? 'first (builds the tool)' : 'second (--keep)',
    row.topic,
    Object.entries(row.syntheses).map(([tool, status]) => `${tool} (${status})`).join(', ') || 'none',
    String(row.verification_failures.length),
    String(row.tool_uses),
    String(row.llm_calls),
    `${row.tokens.input}/${row.tokens.output}`,
    `${Math.round(row.duration_ms)} ms`,
    row.answer ?? row.status,
  ]);
  return `
Forge demo: a missing tool written, caught, fixed, promoted, and then simply reused.

1. A convergence run on "${first!.topic}" has no tool to read a release's version, so it calls
   request_tool. The author model writes release_version; a separate tester, seeing only the contract,
   writes an adversarial test. The model answers come from a SCRIPTED MODEL SESSION (a cassette bundled
   with Forge, whose first draft carries a planted bug). The sandbox, the test runs, the stub checks,
   the promotion and the pages (a fixture web on 127.0.0.1) are real. No key, no network.
2. The sandbox caught the first draft:
     ${first!.verification_failures[0] ?? '(nothing was caught)'}
   The revision passed, the test failed against every stub (constants, echo, throw), and the tool was
   promoted and used.
3. A second run on "${second!.topic}" found the tool in the toolbox and used it: no synthesis.

${table(header, lines)}

Everything is stored under ${report.home}. Next:
  FORGE_HOME=${report.home} npx forge tools show release_version --source
  FORGE_HOME=${report.home} npx forge stats --all
  npx forge run --converge "<your task>"   (with a model configured: see npx forge run --help)
`;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('The skill lifecycle, offline: a recorded agent run, saved as a skill, replayed on three other topics with model calls and tokens side by side. With --toolbox: the self-extending toolbox instead.')
    .option('--toolbox', 'show the self-extending toolbox: a tool requested, written, caught by its test, revised, promoted and reused')
    .option('--json', 'print the comparison as JSON')
    .option('--trace', 'also print every event of every run as it happens (on stderr)')
    .addHelpText(
      'after',
      `
The demo serves a bundled fixture web (twelve projects with docs, code-host release pages and spam,
plus a SearXNG-format search engine) on 127.0.0.1, pins its host names there for the SSRF guard, and
uses its own data folder, FORGE_HOME/demo. The first run's model is a recorded session (a cassette),
so it needs no key; the replays need no model at all.

--toolbox plays a scripted model session (agent, tool author and tester) against the same fixture web;
the sandbox, the verification gate and the toolbox are real. Its data folder is FORGE_HOME/demo-toolbox.`,
    )
    .action(async (options: { json?: boolean; trace?: boolean; toolbox?: boolean }) => {
      const json = options.json === true;
      try {
        // Loaded on use, so `forge --help` and other commands start fast.
        const { runLifecycleDemo, runToolboxDemo } = await import('../../demo/index.js');
        const { formatEventLine } = await import('../event-line/index.js');
        const demoOptions = options.trace === true ? { onEvent: (event: ForgeEvent) => printError(`${formatEventLine(event)}\n`) } : {};
        if (options.toolbox === true) {
          const report = await runToolboxDemo(process.env, demoOptions);
          if (json) printJson(report);
          else printOut(toolboxNarrative(report));
          // A run that does not complete throws (DemoRunError), so a report always tells the whole story.
          process.exitCode = EXIT.ok;
          return;
        }
        const report = await runLifecycleDemo(process.env, demoOptions);
        if (json) printJson(report);
        else printOut(narrative(report));
        process.exitCode = report.rows.every((row) => row.status === 'completed') ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
