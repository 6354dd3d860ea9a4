import { Command, type OutputConfiguration } from 'commander';
import { registerReplayCommand } from './commands/replay-command.js';
import { registerRunCommand } from './commands/run-command.js';
import { registerRunsCommand } from './commands/runs-command.js';
import { registerApprovalsCommand } from './commands/approvals-command.js';
import { registerStatsCommand } from './commands/stats-command.js';
import { registerToolsCommand } from './commands/tools-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerSkillCommand } from './commands/skill-command.js';
import { FORGE_VERSION } from '../version.js';
import { commandKey } from './command-path.js';
import { presentJsonAs } from './terminal-output.js';

/**
 * The whole `forge` command tree, built without parsing anything: `main.ts` parses `process.argv` with
 * it, and the JSON-output contract test walks it to find every command that takes `--json`. `output`
 * is set before any command is added, so every command inherits it (with `--json`, argument-parser
 * errors are printed as JSON by `main.ts` instead of as commander's text).
 */
export function buildProgram(output: OutputConfiguration = {}): Command {
  const program = new Command()
    .name('forge')
    .description('Forge: an agent engine whose agents pay full reasoning cost only the first time they solve a repeatable problem.')
    .version(FORGE_VERSION)
    .configureOutput(output)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `
Start here:
  $ forge demo                        a complete agent run on local data, no key needed
  $ forge run "your task"             run an agent (configure a model first: see \`forge run --help\`)
  $ forge tools list                  what the agent can use

Configuration is by environment: FORGE_HOME (default ./.forge), FORGE_MODEL, OPENAI_API_KEY,
ANTHROPIC_API_KEY, OPENROUTER_API_KEY, FORGE_SEARCH, FORGE_SEARXNG_URL, FORGE_ALLOW_HOSTS, …
(the README lists them all).`,
    );

  // With --json, what the command prints is presented by its output schema (loaded only then, so other commands start fast).
  program.hook('preAction', async (_program, action) => {
    if (action.opts()['json'] !== true) return;
    const { commandOutputs } = await import('./json-output/command-outputs.js');
    presentJsonAs(commandOutputs[commandKey(action)]);
  });

  registerRunCommand(program);
  registerToolsCommand(program);
  registerMcpCommand(program);
  registerRunsCommand(program);
  registerApprovalsCommand(program);
  registerStatsCommand(program);
  registerReplayCommand(program);
  registerDemoCommand(program);
  registerSkillCommand(program);
  return program;
}
