import { ConfigurationError, ForgeError, ModelNotConfiguredError, UnknownToolsError, describeError, type ErrorInfo, type RunStatus } from '../core/index.js';
import type { Command, CommanderError } from 'commander';
import { errorDocument } from './json-output/error-output.js';
import { commandPath } from './command-path.js';
import { printError, printJson } from './terminal-output.js';

/** Exit codes of the `forge` command. */
/** `refused`: a skill replay stopped before a write it could not prove (a safe failure; that step wrote nothing). */
/** `waiting` (4): the run paused for an approval and is stored, waiting; answer it with `forge approvals`. */
export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3, waiting: 4, cancelled: 130 } as const;

/** What the person typed or wrote was wrong (by name, so the modules that throw them load only on use): exit 2. */
const USAGE_ERRORS = new Set(['AgentParameterError', 'AgentDefinitionError', 'AgentSecretValueError', 'AgentTemplateError', 'PolicyInvalidError']);

/** An error as the terminal shows it: `forge: <message>` and, when there is one, an indented hint. */
export function errorLines(info: ErrorInfo): string {
  return `forge: ${info.message}\n${info.hint === undefined ? '' : `  hint: ${info.hint}\n`}`;
}

/** The exit code for how a run ended. */
export function exitCodeForRun(status: RunStatus): number {
  if (status === 'completed') return EXIT.ok;
  if (status === 'refused') return EXIT.refused;
  if (status === 'waiting') return EXIT.waiting;
  return status === 'cancelled' ? EXIT.cancelled : EXIT.failed;
}

/**
 * Reports an error the way a user can act on it: the message and the hint, no stack trace (set
 * FORGE_DEBUG=1 for one). With `--json` the error is printed as `{"error": {...}}` on stdout. Like all
 * output, it is printed redacted and terminal-safe (see `printOut`).
 */
export function reportError(error: unknown, json: boolean): number {
  const info = describeError(error);
  if (json) {
    printJson(errorDocument(info));
  } else if (error instanceof ModelNotConfiguredError) {
    printError(`forge: ${info.message}\n\n${info.hint ?? ''}\n`);
  } else {
    printError(errorLines(info));
  }
  if (process.env['FORGE_DEBUG'] === '1' && error instanceof Error && error.stack !== undefined) printError(`${error.stack}\n`);
  const usage = error instanceof ConfigurationError || error instanceof ModelNotConfiguredError || error instanceof UnknownToolsError || USAGE_ERRORS.has(info.name);
  return ForgeError.isInstance(error) && usage ? EXIT.usage : EXIT.failed;
}

/**
 * With `--json`, an argument-parser error (unknown option, missing argument, …) as the same error
 * document every other failure prints, naming the help of the command it was parsed for.
 */
export function reportUsageError(error: CommanderError, command: Command): void {
  // Commander says "error: unknown option '--x'"; the document says it as a sentence, like Forge's own errors.
  const text = error.message.replace(/^error: /, '');
  const message = `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;
  printJson(errorDocument({ name: 'UsageError', message, hint: `See \`${commandPath(command)} --help\` for its arguments and options.` }));
}

/** Parses a `--input` / JSON option, naming the option when it is not JSON. */
export function parseJsonOption(option: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigurationError(option, `is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, `Quote it for your shell, e.g. ${option} '{"query": "forge"}'.`);
  }
}

/** Parses a TCP port option: 0 to 65535, where 0 lets the system pick a free port. */
export function parsePort(option: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new ConfigurationError(option, `must be a port number from 0 to 65535 (0 picks a free one), got "${value}".`);
    return parsed;
  };
}

/** Parses a positive whole-number option. */
export function parsePositiveInteger(option: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) throw new ConfigurationError(option, `must be a positive whole number, got "${value}".`);
    return parsed;
  };
}
