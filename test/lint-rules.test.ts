import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The project's own ESLint configuration, run on a fixture as if the fixture sat at `asFile`. */
async function lintAs(fixture: string, asFile: string): Promise<ESLint.LintResult> {
  const text = await readFile(path.join(root, 'test', 'fixtures', 'lint', fixture), 'utf8');
  const [result] = await new ESLint({ cwd: root }).lintText(text, { filePath: path.join(root, asFile) });
  return result!;
}

describe('lint rules of the architecture', () => {
  it('rejects a module outside src/runs that imports a loop to start it, and allows it in src/runs', async () => {
    const outside = await lintAs('loop-outside-runs.ts', 'src/server/mcp/loop-outside-runs.ts');
    const rejected = outside.messages.filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports');

    expect(rejected.map((message) => message.message)).toEqual([
      expect.stringContaining("'runAgent' import from '../../../src/engine/index.js' is restricted"),
      expect.stringContaining("'runConverge' import from '../../../src/synthesis/converge/index.js' is restricted"),
    ]);
    expect(rejected[0]!.message).toContain('Only src/runs starts a loop');
    const inside = await lintAs('loop-outside-runs.ts', 'src/runs/loop-outside-runs.ts');
    expect(inside.messages.filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports')).toEqual([]);
  });
});
