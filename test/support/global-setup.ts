import { ensureBuiltCli } from './built-cli.js';

/** Before any test file runs: the tests that drive the real `forge` binary need an up-to-date dist/. */
export function setup(): void {
  ensureBuiltCli();
}
