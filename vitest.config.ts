import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one test file at a time on the 2-core CI machine,
    // whose second core then mostly idles, since most files wait on the processes they start (the CLI, servers,
    // Chromium). Two files at once: 6 CLI test files took 321 s instead of 393 s on a loaded machine.
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    // Ink draws only the final frame when it thinks it runs in CI (CI=true); the view tests need every frame.
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
  },
});
