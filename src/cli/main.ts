import { Command, CommanderError } from 'commander';
import { registerReplayCommand } from './commands/replay-command.js';
import { registerRunCommand } from './commands/run-command.js';
import { registerRunsCommand } from './commands/runs-command.js';
import { registerApprovalsCommand } from './commands/approvals-command.js';
import { registerServeCommand } from './commands/serve-command.js';
import { registerStatsCommand } from './commands/stats-command.js';
import { registerToolsCommand } from './commands/tools-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerSkillCommand } from './commands/skill-command.js';
import { EXIT, reportError } from './command-errors.js';
import { FORGE_VERSION } from '../version.js';

const program = new Command()
  .name('forge')
  .description('Forge: an agent engine whose agents pay full reasoning cost only the first time they solve a repeatable problem.')
  .version(FORGE_VERSION)
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

registerRunCommand(program);
registerToolsCommand(program);
registerMcpCommand(program);
registerRunsCommand(program);
registerApprovalsCommand(program);
registerServeCommand(program);
registerStatsCommand(program);
registerReplayCommand(program);
registerDemoCommand(program);
registerSkillCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.exitCode = reportError(error, process.argv.includes('--json'));
  }
}
