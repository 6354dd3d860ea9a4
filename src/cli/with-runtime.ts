import type { ForgeRuntime, RuntimeOptions } from '../compose/index.js';
import { reportError } from './command-errors.js';
import { cliRedactor, printError } from './terminal-output.js';

/**
 * Opens the runtime for one command, runs `action`, sets the exit code from its result (or from the
 * error, reported the way users can act on it) and always closes the runtime. The runtime shares the
 * CLI's redactor, so secrets it learns (MCP header values) are redacted from what the command prints;
 * what opening did that a person should hear of (`runtime.notices`) is printed first, on stderr.
 * The runtime module is loaded on use, so `forge --help` and light commands start fast.
 */
export async function withRuntime(json: boolean, action: (runtime: ForgeRuntime) => Promise<number>, options: RuntimeOptions = {}): Promise<void> {
  let runtime: ForgeRuntime | undefined;
  try {
    const { openRuntime } = await import('../compose/index.js');
    runtime = await openRuntime(process.env, process.cwd(), { ...options, redactor: cliRedactor });
    // On stderr, so a command's --json output stays one document.
    for (const notice of runtime.notices) printError(`${notice}\n`);
    process.exitCode = await action(runtime);
  } catch (error) {
    process.exitCode = reportError(error, json);
  } finally {
    await runtime?.close();
  }
}
