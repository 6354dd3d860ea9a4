import { ensureBuiltCli } from './built-cli.js';
import { ensureBuiltWebUi } from './web-ui-build.js';

/** Before any test file runs: the tests that drive the real `forge` binary need an up-to-date dist/, the web UI tests dist/web. */
export async function setup(): Promise<void> {
  ensureBuiltCli();
  await ensureBuiltWebUi();
}
