import { ToolRateLimitError } from '../../core/index.js';
import type { Clock } from './call-guard-settings.js';

const MINUTE_MS = 60_000;

export interface CallRateLimitOptions {
  /** Calls of one tool in any minute; 0: no limit. */
  readonly perToolPerMinute: number;
  /** Calls of all tools together in any minute; 0: no limit. */
  readonly perRunPerMinute: number;
  readonly clock: Clock;
}

/**
 * One run's call rates, over a sliding minute: a call is admitted only when fewer than the limit were
 * admitted in the 60 s before it, for its tool and for the run. A refused call is not counted, so a
 * model that is refused and waits gets through again. Each window holds at most its limit of times.
 */
export class CallRateLimits {
  private readonly perTool = new Map<string, number[]>();
  private readonly run: number[] = [];

  constructor(private readonly options: CallRateLimitOptions) {}

  /** Counts a call of `tool`, or throws `ToolRateLimitError` (counting nothing) when it is over a limit. */
  admit(tool: string): void {
    const now = this.options.clock();
    const { perToolPerMinute, perRunPerMinute } = this.options;
    const toolWindow = perToolPerMinute === 0 ? undefined : this.toolWindow(tool);
    if (toolWindow !== undefined) refuseWhenFull(toolWindow, perToolPerMinute, now, (retryAfterMs) => new ToolRateLimitError(tool, 'tool', perToolPerMinute, retryAfterMs));
    if (perRunPerMinute !== 0) refuseWhenFull(this.run, perRunPerMinute, now, (retryAfterMs) => new ToolRateLimitError(tool, 'run', perRunPerMinute, retryAfterMs));
    toolWindow?.push(now);
    if (perRunPerMinute !== 0) this.run.push(now);
  }

  private toolWindow(tool: string): number[] {
    let window = this.perTool.get(tool);
    if (window === undefined) {
      window = [];
      this.perTool.set(tool, window);
    }
    return window;
  }
}

/** Drops the times older than a minute from `window` (oldest first), then throws when `limit` remain. */
function refuseWhenFull(window: number[], limit: number, now: number, refusal: (retryAfterMs: number) => Error): void {
  while (window.length > 0 && now - window[0]! >= MINUTE_MS) window.shift();
  if (window.length >= limit) throw refusal(window[0]! + MINUTE_MS - now);
}
