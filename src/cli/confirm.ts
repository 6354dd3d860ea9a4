import { createInterface } from 'node:readline/promises';

/**
 * Asks a yes/no question on the terminal before something that cannot be undone; only "y" or "yes"
 * confirms (Enter keeps the default, no). Without a terminal (a script, CI) or with `--yes` it does not
 * ask: the caller decides what `assumeYes` is.
 */
export async function confirmOnTerminal(question: string, assumeYes: boolean): Promise<boolean> {
  if (assumeYes || process.stdin.isTTY !== true) return true;
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(`${question} [y/N] `)).trim());
  } finally {
    terminal.close();
  }
}
