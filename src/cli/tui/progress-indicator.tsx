import { Text } from 'ink';
import { formatDuration } from '../event-line/index.js';

export interface ProgressIndicatorProps {
  /** What is in progress, e.g. `anthropic:claude-sonnet-4-6 iteration 3`. */
  readonly label: string;
  readonly startedAtMs: number;
  /** The current time in the view's clock (wall clock live, the replay's clock in a replay). */
  readonly now: number;
  /** Known amount done, with `total`: a bar and percentage are shown. Without a total, only the spinner. */
  readonly completed?: number;
  readonly total?: number;
  /** Unit of `completed`/`total`, e.g. `MB` or `chunks`. */
  readonly unit?: string;
  readonly color?: string;
}

const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const spinnerFrameMs = 80;
const barWidth = 16;

/**
 * The one progress display for long work: a model call in flight, and later downloads and ingestion.
 * A spinner and elapsed time always; a bar and percentage when the total is known. The spinner frame is a
 * function of `now`, so the same props always draw the same row.
 */
export function ProgressIndicator({ label, startedAtMs, now, completed, total, unit, color = 'cyan' }: ProgressIndicatorProps) {
  const frame = spinnerFrames[Math.floor(Math.max(0, now) / spinnerFrameMs) % spinnerFrames.length];
  const elapsed = formatDuration(now - startedAtMs);
  return (
    <Text wrap="truncate-end">
      <Text color={color}>{`${frame} `}</Text>
      <Text>{label}</Text>
      {total !== undefined && total > 0 && completed !== undefined ? <Text>{` ${progressBar(completed, total)} ${describeAmount(completed, total, unit)}`}</Text> : null}
      <Text dimColor>{` ${elapsed}`}</Text>
    </Text>
  );
}

function progressBar(completed: number, total: number): string {
  const fraction = Math.min(1, Math.max(0, completed / total));
  const filled = Math.round(fraction * barWidth);
  return `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${Math.floor(fraction * 100)}%`;
}

function describeAmount(completed: number, total: number, unit: string | undefined): string {
  return `${completed}/${total}${unit === undefined ? '' : ` ${unit}`}`;
}
