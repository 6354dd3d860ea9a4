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
