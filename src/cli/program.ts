import { Command, type OutputConfiguration } from 'commander';
import { registerReplayCommand } from './commands/replay-command.js';
import { registerRunCommand } from './commands/run-command.js';
import { registerRunsCommand } from './commands/runs-command.js';
import { registerApprovalsCommand } from './commands/approvals-command.js';
import { registerPolicyCommand } from './commands/policy-command.js';
import { registerAgentCommand } from './commands/agent-command.js';
import { registerStatsCommand } from './commands/stats-command.js';
import { registerToolsCommand } from './commands/tools-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerSkillCommand } from './commands/skill-command.js';
import { registerServeCommand } from './commands/serve-command.js';
import { registerWorkerCommand } from './commands/worker-command.js';
import { registerHomeCommand } from './commands/home-command.js';
import { registerConfigCommand } from './commands/config-command.js';
import { registerInitCommand } from './commands/init-command.js';
import { registerDoctorCommand } from './commands/doctor-command.js';
import { registerUsersCommand } from './commands/users-command.js';
import { registerApiKeysCommand } from './commands/api-keys-command.js';
import { registerAccountsCommand } from './commands/accounts-command.js';
import { registerSecretKeyCommand } from './commands/secret-key-command.js';
import { registerStoreCommand } from './commands/store-command.js';
import { FORGE_VERSION } from '../version.js';
import { commandKey } from './command-path.js';
import { presentJsonAs } from './terminal-output.js';

/**
 * Every noun command answers to its singular and its plural (`forge skill list` and `forge skills list`),
 * so nobody has to remember which one Forge picked. `run` and `runs` stay apart: one verb, one noun.
 */
const NOUN_ALIASES: Readonly<Record<string, string>> = {
  agent: 'agents',
  skill: 'skills',
  tools: 'tool',
  approvals: 'approval',
  policy: 'policies',
  users: 'user',
  'api-keys': 'api-key',
  accounts: 'account',
  'secret-key': 'secret-keys',
};

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
  $ forge init                        write forge.config.json: model, search, allowed hosts
  $ forge doctor                      check the model, search, guard, store and sandbox end to end
  $ forge run "your task"             run an agent

Settings: the environment, then ./forge.config.json, then <home>/forge.config.json (forge config list
shows each value and its source). The home is FORGE_HOME, else an existing ./.forge, else ~/.forge
(forge home says which and why).`,
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
  registerPolicyCommand(program);
  registerAgentCommand(program);
  registerServeCommand(program);
  registerWorkerCommand(program);
  registerUsersCommand(program);
  registerApiKeysCommand(program);
  registerAccountsCommand(program);
  registerSecretKeyCommand(program);
  registerStoreCommand(program);
  registerStatsCommand(program);
  registerReplayCommand(program);
  registerDemoCommand(program);
  registerSkillCommand(program);
  registerHomeCommand(program);
  registerConfigCommand(program);
  registerInitCommand(program);
  registerDoctorCommand(program);
  for (const command of program.commands) {
    const alias = NOUN_ALIASES[command.name()];
    if (alias !== undefined) command.alias(alias);
  }
  return program;
}
