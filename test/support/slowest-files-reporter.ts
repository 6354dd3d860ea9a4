import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 15;

/**
 * Prints, after the run, the test files that took longest (their tests and hooks, plus import), so a
 * slow file that creeps into the suite is seen in every CI log, not found by bisecting later.
 */
export default class SlowestFilesReporter implements Reporter {
  private startedAt = 0;

  onTestRunStart(): void {
    this.startedAt = performance.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules.map((module) => {
      const { duration, collectDuration } = module.diagnostic();
      return { file: module.relativeModuleId, seconds: (duration + collectDuration) / 1000 };
    });
    timed.sort((a, b) => b.seconds - a.seconds);
    const wall = (performance.now() - this.startedAt) / 1000;
    const lines = timed.slice(0, SHOWN).map(({ file, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${file}`);
    process.stdout.write(`\nThe ${Math.min(SHOWN, timed.length)} slowest of ${timed.length} test files (wall time of the run: ${wall.toFixed(0)} s):\n${lines.join('\n')}\n`);
  }
}
