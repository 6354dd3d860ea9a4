import type { ForgeEvent } from '../../core/index.js';
import { readableOutput } from '../../security/index.js';
import { describeEvent, formatErrorInfo, formatResolution } from './describe-event.js';
import { formatClockTime, truncateText } from './format-values.js';

/** Model prose is long and not the point of a trace; errors and sandbox output (and logs) are never cut. */
const proseLimit = 500;
/** The longest event type, so the descriptions line up in a column. */
const typeColumnWidth = 'verification-failed'.length;

/**
 * One plain line for one event: `HH:MM:SS.mmm type description`. This is the whole output of
 * `forge run --no-tui`, of any run whose output is not a terminal, and of `forge replay --no-tui`, so it
 * must stand on its own: tool name and compact input, result size and truncation, model tokens, cost and
 * latency, and every error and sandbox failure in full. Never contains a newline (multi-line payloads are
 * written as JSON strings), so one line is always one event and the output can be grepped.
 */
export function formatEventLine(event: ForgeEvent): string {
  const payload = inlinePayload(event);
  const line = `${formatClockTime(event.ts)} ${event.type.padEnd(typeColumnWidth)} ${describeEvent(event)}${payload === '' ? '' : ` ${payload}`}`;
  return line.replace(/\r\n|\r|\n/g, '\\n');
}

function inlinePayload(event: ForgeEvent): string {
  switch (event.type) {
    case 'assistant-text':
      return `text=${JSON.stringify(truncateText(event.text, proseLimit))}`;
    case 'verification-failed':
      return `output=${JSON.stringify(event.output)}`;
    case 'tool-log':
      return `lines=${JSON.stringify(event.lines)}`;
    case 'skill-step':
      return event.resolutions.length === 0 ? '' : `| ${event.resolutions.map(formatResolution).join('; ')}`;
    case 'run-end': {
      const parts = [
        event.answer === null ? '' : `answer=${JSON.stringify(truncateText(readableOutput(event.answer), proseLimit))}`,
        event.error === null ? '' : `error=${JSON.stringify(formatErrorInfo(event.error))}`,
      ];
      return parts.filter((part) => part !== '').join(' ');
    }
    default:
      return '';
  }
}
