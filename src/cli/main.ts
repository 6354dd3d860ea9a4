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
import { registerHomeCommand } from './commands/home-command.js';
import { registerConfigCommand } from './commands/config-command.js';
import { registerInitCommand } from './commands/init-command.js';
import { registerDoctorCommand } from './commands/doctor-command.js';
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
  $ forge init                        write forge.config.json: model, search, allowed hosts
  $ forge doctor                      check the model, search, guard, store and sandbox end to end
  $ forge run "your task"             run an agent

Settings: the environment, then ./forge.config.json, then <home>/forge.config.json (forge config list
shows each value and its source). The home is FORGE_HOME, else an existing ./.forge, else ~/.forge
(forge home says which and why).`,
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
registerHomeCommand(program);
registerConfigCommand(program);
registerInitCommand(program);
registerDoctorCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.exitCode = reportError(error, process.argv.includes('--json'));
  }
}
