import { ToolFailureBlockedError } from '../../core/index.js';

/** How much of the last error a block repeats: enough to say what went wrong, never a whole page. */
const LAST_ERROR_LIMIT = 200;

interface Streak {
  failures: number;
  lastError: string;
}

/**
 * One run's failures in a row, per tool. A tool that failed `limit` times in a row is blocked for the
 * rest of the run; a success before that resets its count.
 */
export class FailureStreaks {
  private readonly streaks = new Map<string, Streak>();

  constructor(private readonly limit: number) {}

  /** Throws `ToolFailureBlockedError` when `tool` is blocked. */
  check(tool: string): void {
    const streak = this.streaks.get(tool);
    if (streak !== undefined && streak.failures >= this.limit) throw new ToolFailureBlockedError(tool, streak.failures, streak.lastError);
  }

  succeeded(tool: string): void {
    this.streaks.delete(tool);
  }

  failed(tool: string, message: string): void {
    const streak = this.streaks.get(tool) ?? { failures: 0, lastError: '' };
    streak.failures += 1;
    streak.lastError = message.length <= LAST_ERROR_LIMIT ? message : `${message.slice(0, LAST_ERROR_LIMIT - 1)}…`;
    this.streaks.set(tool, streak);
  }
}
