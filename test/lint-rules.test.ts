import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = path.join(root, 'test', 'fixtures', 'lint');

/** The rules the project's own lint configuration reports for one fixture file (fixtures are ignored by `npm run lint`). */
const eslint = new ESLint({ cwd: root, ignore: false });
async function rulesBrokenBy(...files: string[]): Promise<string[]> {
  const results = await eslint.lintFiles(files.map((file) => path.join(fixtures, file)));
  return results.flatMap((result) => result.messages.map((message) => message.ruleId ?? message.message));
}

/**
 * The design's rules are enforced, not only written: each fixture breaks one rule, and the project's
 * own ESLint configuration must reject it (the tree itself passes `npm run lint`).
 */
// The first file linted builds the type-aware program: the fixtures' own (test/fixtures/lint/tsconfig.json), the files they import
// included, not the whole project's; still a while on a loaded machine.
describe('lint rules', { timeout: 240_000 }, () => {
  it('rejects an import cycle', async () => {
    expect(await rulesBrokenBy('cycle-a.ts', 'cycle-b.ts')).toEqual(['import-x/no-cycle', 'import-x/no-cycle']);
  });

  it('rejects a floating promise', async () => {
    expect(await rulesBrokenBy('floating-promise.ts')).toEqual(['@typescript-eslint/no-floating-promises']);
  });

  it('rejects an async callback where nothing may be returned', async () => {
    expect(await rulesBrokenBy('misused-promise.ts')).toEqual(['@typescript-eslint/no-misused-promises']);
  });

  it('rejects a module outside src/runs that imports a loop to start it (only the run front door starts runs)', async () => {
    expect(await rulesBrokenBy('loop-outside-runs.ts')).toEqual(['@typescript-eslint/no-restricted-imports', '@typescript-eslint/no-restricted-imports']);
  });

  it('rejects an API consumer (the web UI, the typed client) that imports the server instead of the contract', async () => {
    expect(await rulesBrokenBy('consumer-imports-server.ts')).toEqual(['import-x/no-restricted-paths', 'import-x/no-restricted-paths']);
  });

  it('keeps src/core free of imports of ours (no later block replaces its rule)', async () => {
    const config = (await eslint.calculateConfigForFile(path.join(root, 'src', 'core', 'errors.ts'))) as { rules: Record<string, unknown> };
    expect(JSON.stringify(config.rules['no-restricted-imports'])).toContain('src/core holds contracts only');
  });

  it('rejects a switch that misses a member of its union', async () => {
    expect(await rulesBrokenBy('missed-switch.ts')).toEqual(['@typescript-eslint/switch-exhaustiveness-check']);
  });
});
