import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    // Ink draws only the final frame when it thinks it runs in CI (CI=true); the view tests need every frame.
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
  },
});
