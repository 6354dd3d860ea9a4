import type { Command } from 'commander';
import type { ForgeEvent } from '../../core/index.js';
import type { DemoReport, DemoRow, FixtureWorldServer, ToolboxDemoReport } from '../../demo/index.js';
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

The runs and the skill are in your Forge home, ${report.home} (\`forge home\` says why). Try, from here:
${hintTable([
  ['forge skill list', 'the skill the demo saved'],
  [`forge skill test ${report.skill}`, 'offline, against the recording'],
  ['forge runs list', 'the four runs, newest first'],
  ['forge stats', "the newest run's figures"],
  [`forge replay ${agent!.log_file}`, 'the full run again, step by step, in the terminal'],
  ['forge demo --serve-world', 'the fixture web again, to run the skill on another topic (it prints the settings and the command)'],
  ['forge init', 'then configure a model and a search engine, and run your own task with forge run'],
])}
`;
}

/**
 * Commands beside what they do, the descriptions starting at `column`; a command too long for the column (a
 * log file's path) gets its description on the next line, indented to the column.
 */
export function hintTable(rows: readonly (readonly [string, string])[], column = 40): string {
  return rows
    .map(([command, what]) => (command.length <= column - 3 ? `  ${command.padEnd(column - 3)} ${what}` : `  ${command}\n${' '.repeat(column)}${what}`))
    .join('\n');
}

function worldInstructions(world: FixtureWorldServer, settings: Record<string, string>, skill: string, topics: readonly string[]): string {
  const exports = Object.entries(settings).map(([variable, value]) => `export ${variable}='${value}'`).join('\n');
  return `The demo's fixture web and search engine are serving on 127.0.0.1:${world.port}. In another shell, in this folder:

${exports}
forge skill run ${skill} --input topic=${topics.at(-2)}

(topics: ${topics.join(', ')}).
Ctrl-C stops the world.
`;
}

/** Serves the fixture world until Ctrl-C (or SIGTERM), after printing how to reach it. */
async function serveWorld(json: boolean): Promise<void> {
  const { DEMO_SKILL, WORLD_TOPICS, fixtureWorldEnvironment, startFixtureWorld } = await import('../../demo/index.js');
  const world = await startFixtureWorld();
  const settings = fixtureWorldEnvironment(world);
  if (json) printJson({ port: world.port, env: settings });
  else printOut(worldInstructions(world, settings, DEMO_SKILL, WORLD_TOPICS.map((topic) => topic.name)));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await world.close();
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
  FORGE_HOME=${report.home} forge tools show release_version --source
  FORGE_HOME=${report.home} forge stats --all
  forge run --converge "<your task>"   (with a model configured: see forge init)
`;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('The skill lifecycle, offline: a recorded agent run, saved as a skill, replayed on three other topics with model calls and tokens side by side. With --toolbox: the self-extending toolbox instead.')
    .option('--toolbox', 'show the self-extending toolbox: a tool requested, written, caught by its test, revised, promoted and reused')
    .option('--serve-world', "serve the demo's fixture web and search engine again (until Ctrl-C), to re-run the demo's skill")
    .option('--json', 'print the comparison as JSON (with --serve-world: the port and the settings, once serving)')
    .option('--trace', 'also print every event of every run as it happens (on stderr)')
    .addHelpText(
      'after',
      `
The demo serves a bundled fixture web (twelve projects with docs, code-host release pages and spam,
plus a SearXNG-format search engine) on 127.0.0.1, pins its host names there for the SSRF guard, and
leaves its runs and the skill in your Forge home (see \`forge home\`), so \`forge skill list\`, \`forge runs
list\`, \`forge stats\` and \`forge replay\` show them afterwards. The first run's model is a recorded session
(a cassette), so it needs no key; the replays need no model at all. \`forge demo --serve-world\` serves
the fixture web again, so the skill can be run on another topic later.

--toolbox plays a scripted model session (agent, tool author and tester) against the same fixture web;
the sandbox, the verification gate and the toolbox are real. Its data folder is FORGE_HOME/demo-toolbox.`,
    )
    .action(async (options: { json?: boolean; trace?: boolean; toolbox?: boolean; serveWorld?: boolean }) => {
      const json = options.json === true;
      try {
        if (options.serveWorld === true) {
          await serveWorld(json);
          process.exitCode = EXIT.ok;
          return;
        }
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
