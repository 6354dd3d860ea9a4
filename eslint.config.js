import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * Import cycles that exist today, all around the run entrances and the composition root; the structure
 * work (issue 27: one run front door, services with narrow dependencies) removes them. Nothing may be
 * added to this list: a new cycle anywhere else fails lint.
 */
const KNOWN_CYCLES = [
  'src/compose/create-runtime.ts',
  'src/runs/agent-runs.ts',
  'src/runs/run-front-door.ts',
  'src/runs/task-runs.ts',
];

/** import-x reads our imports as TypeScript and resolves them as tsc does. */
const importSettings = {
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
};

export default tseslint.config(
  // test/fixtures/lint holds code each rule must reject; test/lint-rules.test.ts lints it on purpose.
  { ignores: ['dist/**', 'node_modules/**', '.forge/**', 'web/dist/**', 'coverage/**', 'test/fixtures/lint/**'] },
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
    // Type-aware rules: a promise nobody awaits or handles, a promise where a callback must return
    // nothing (an event handler), a switch over a union that misses a member.
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}', 'bench/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // No import cycles in the production tree (dependencies are parsed as TypeScript, resolved as tsc does).
    files: ['src/**/*.{ts,tsx}', 'test/fixtures/lint/**/*.ts'],
    ignores: ['src/**/*.test.{ts,tsx}', ...KNOWN_CYCLES],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The API's consumers are typed from its contract (src/contract), never from the server's internals:
    // the web UI and the typed client (forge-agent/client) import nothing from src/server.
    files: ['web/src/**/*.{ts,tsx}', 'src/client/**/*.ts', 'test/fixtures/lint/consumer-imports-server.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: ['./web/src', './src/client', './test/fixtures/lint/consumer-imports-server.ts'],
              from: './src/server',
              message: 'The web UI and the typed client are typed from the API contract: import src/contract (and src/core), never src/server.',
            },
          ],
        },
      ],
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
    files: ['src/**/*.{ts,tsx}', 'test/fixtures/lint/loop-outside-runs.ts'],
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
    // Not src/core: its own stricter block above forbids every import of ours, and a later block setting the same rule would replace it.
    files: ['src/**/*.ts'],
    ignores: ['src/core/**', 'src/cli/**', 'src/server/**', 'src/compose/**', 'src/adapters/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/store/libsql/*', '**/store/postgres/*', '@libsql/*', 'pg'], message: 'Feature modules use the Store contract from src/core; only composition roots choose an implementation.' }] },
      ],
    },
  },
);
