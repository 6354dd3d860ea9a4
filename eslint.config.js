import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.forge/**', 'web/dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  { files: ['web/src/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*', 'ai', '@ai-sdk/*', '@libsql/*', 'pg', 'undici', 'hono', 'commander'], message: 'src/core holds contracts only and imports nothing of ours or of vendors.' }] },
      ],
    },
  },
  {
    // Only the run front door starts a loop: every run enters through runs.submit / runs.execute (src/runs).
    // The typescript-eslint twin of no-restricted-imports, so it adds to the blocks around it instead of replacing them.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/runs/**', 'src/engine/**', 'src/synthesis/converge/**', 'src/**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/engine', '**/engine/**'], importNames: ['runAgent', 'runLoop'], message: 'Only src/runs starts a loop: submit a RunRequest to runtime.runs.submit (or runs.execute) instead.' },
            { group: ['**/synthesis/converge', '**/synthesis/converge/**', '**/converge/index.js'], importNames: ['runConverge'], message: 'Only src/runs starts a loop: submit a converge_task RunRequest to runtime.runs.submit (or runs.execute) instead.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/server/**', 'src/compose/**', 'src/adapters/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/store/libsql/*', '**/store/postgres/*', '@libsql/*', 'pg'], message: 'Feature modules use the Store contract from src/core; only composition roots choose an implementation.' }] },
      ],
    },
  },
);
