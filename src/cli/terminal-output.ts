import { SecretRedactor, secretsFromEnvironment } from '../security/redaction/index.js';
import type { z } from 'zod';
import { presentJson } from './json-output/json-presenter.js';
import { terminalJson, terminalText } from './terminal-text.js';

/**
 * The secrets this CLI process knows: its environment's keys from the start, and whatever the runtime
 * it opens adds (MCP header values as they are opened), since commands hand it to `openRuntime`.
 */
export const cliRedactor = new SecretRedactor(secretsFromEnvironment(process.env));

/**
 * Everything the `forge` command prints goes through these: secrets redacted, URL credentials masked and
 * terminal control characters escaped (see `terminalText`), whether stdout is a terminal or a pipe, since
 * a pipe's output usually ends up on one.
 */
export function printOut(text: string): void {
  process.stdout.write(terminalText(cliRedactor.redactText(text)));
}

/** Like `printOut`, on stderr. */
export function printError(text: string): void {
  process.stderr.write(terminalText(cliRedactor.redactText(text)));
}

let outputSchema: z.ZodType | undefined;

/** The output schema of the command this process runs with `--json` (set once, before its action; see `buildProgram`). */
export function presentJsonAs(schema: z.ZodType | undefined): void {
  outputSchema = schema;
}

/**
 * `value` as indented JSON on stdout, one document followed by a newline: presented by the one JSON
 * convention (`presentJson`: plain data, the figures of the command's output schema rounded),
 * redacted and terminal-safe, still valid JSON. Documents a command writes as data (`forge tools
 * export`, `forge skill export`) have no output schema and are printed exactly as they are.
 */
export function printJson(value: unknown): void {
  // Presented first, so what is redacted is exactly what is printed.
  process.stdout.write(`${terminalJson(cliRedactor.redactValue(presentJson(value, outputSchema)))}\n`);
}
