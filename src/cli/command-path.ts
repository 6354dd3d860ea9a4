import type { Command } from 'commander';

/** The names from the program down to `command`, e.g. `forge tools call`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/** The words after `forge` that name `command`, e.g. `tools call`: how `commandOutputs` is keyed. */
export function commandKey(command: Command): string {
  return commandPath(command).split(' ').slice(1).join(' ');
}

/** The subcommand that `args` (the words after `forge`) name, as far as they name one; `program` itself when none. */
export function commandNamedBy(program: Command, args: readonly string[]): Command {
  let command = program;
  for (const word of args) {
    if (word.startsWith('-')) continue;
    const next = command.commands.find((candidate) => candidate.name() === word || candidate.aliases().includes(word));
    if (next === undefined) break;
    command = next;
  }
  return command;
}
