import type { Command } from 'commander';
import { reportError } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';

export function registerHomeCommand(program: Command): void {
  program
    .command('home')
    .description('Print the Forge home (the data folder) in use and why: FORGE_HOME, "home" in ./forge.config.json, an existing ./.forge, or ~/.forge')
    .option('--json', 'print {path, source, reason}')
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      try {
        const { resolveLayeredSettings } = await import('../../config/index.js');
        const { home } = resolveLayeredSettings(process.env, process.cwd());
        if (json) printJson(home);
        else printOut(`${home.path}\n  (${home.reason})\n`);
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
