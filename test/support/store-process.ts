import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Store } from '../../src/core/index.js';

const storeModule = fileURLToPath(new URL('../../dist/adapters/store/index.js', import.meta.url));

/**
 * Runs `work` on the store at `databaseUrl` in a short-lived process of its own, as one more Forge
 * process would, and returns its JSON result (undefined becomes null). A test that drives the CLI keeps
 * SQLite out of its own process this way: its connection never overlaps the CLI's processes' own.
 * `work` is sent as source text, so it may use only `store` and `args`.
 */
export function inStoreProcess<Args, Result>(databaseUrl: string, work: (store: Store, args: Args) => Promise<Result>, args: Args): Promise<Result> {
  const script = `
    import { openStore } from ${JSON.stringify(storeModule)};
    const store = await openStore({ url: process.env.STORE_URL });
    try {
      const result = await (${work.toString()})(store, JSON.parse(process.env.STORE_ARGS));
      process.stdout.write(JSON.stringify({ result: result ?? null }));
    } finally {
      await store.close();
    }`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env['PATH'] ?? '', STORE_URL: databaseUrl, STORE_ARGS: JSON.stringify(args ?? null) }, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`The store process failed: ${stderr || error.message}`));
      else resolve((JSON.parse(stdout) as { result: Result }).result);
    });
  });
}
