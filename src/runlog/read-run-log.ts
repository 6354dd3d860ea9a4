import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { z } from 'zod';
import { NotFoundError, RUN_LOG_FORMAT_VERSION, RunLogError, forgeEventSchema } from '../core/index.js';
import type { ForgeEvent } from '../core/index.js';

/** One line of a run log file, with its 1-based number and whether a newline ended it. */
interface RunLogLine {
  readonly text: string;
  readonly number: number;
  readonly terminated: boolean;
}

/**
 * What `readRunLog` found: every event up to the first bad line, and the reason it stopped there if it did.
 * `error` is absent exactly when the whole file was read.
 */
export interface RunLogReadResult {
  readonly events: ForgeEvent[];
  readonly error?: RunLogError;
}

/**
 * Yields the events of a JSONL run log in file order, validating each line against `forgeEventSchema`.
 *
 * Contract: every event before the first bad line is yielded before anything is thrown. At the first line
 * that is not JSON, not a valid event, or out of sequence (within one run, `seq` must go up by exactly 1,
 * so a lost or duplicated event is caught), iteration throws a `RunLogError` naming the file, the line
 * number and what was wrong (zod issue paths for invalid events; "truncated" when the last line is cut
 * off mid-object). Blank lines carry nothing and are skipped. A missing file throws `NotFoundError`.
 * Every run log format up to `RUN_LOG_FORMAT_VERSION` is read (a `run-start` without `log_format` is
 * format 1); a `run-start` of a newer format is a `RunLogError` saying so, checked before the event's
 * shape, since a newer format may have changed it.
 * The file is streamed, so memory stays flat however long the run was.
 */
export async function* iterateRunLog(file: string): AsyncGenerator<ForgeEvent, void, undefined> {
  await assertReadableFile(file);
  const lastSeqByRun = new Map<string, number>();
  for await (const line of readLines(file)) {
    if (line.text.trim() === '') continue;
    const event = parseEventLine(file, line);
    const previousSeq = lastSeqByRun.get(event.run_id);
    if (previousSeq !== undefined && event.seq !== previousSeq + 1) {
      throw new RunLogError(
        file,
        line.number,
        `event seq ${event.seq} of run ${event.run_id} does not follow seq ${previousSeq}; events are missing, duplicated or out of order.`,
      );
    }
    lastSeqByRun.set(event.run_id, event.seq);
    yield event;
  }
}

/**
 * Reads a whole run log. Never throws for bad content: a bad line ends the read and is returned as
 * `error` beside the events before it, so callers (replay, stats) can show what there is and then report.
 * A missing file still throws `NotFoundError`, because there is nothing to show.
 */
export async function readRunLog(file: string): Promise<RunLogReadResult> {
  const events: ForgeEvent[] = [];
  try {
    for await (const event of iterateRunLog(file)) events.push(event);
  } catch (error) {
    if (error instanceof RunLogError) return { events, error };
    throw error;
  }
  return { events };
}

async function assertReadableFile(file: string): Promise<void> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new RunLogError(file, 0, 'not a file.');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new NotFoundError('run log file', file, 'Pass the path of a .jsonl run log, e.g. one under $FORGE_HOME/runs/.');
    }
    throw error;
  }
}

// A hand-rolled splitter instead of node:readline because readline hides whether the last line ended
// with a newline, and that is exactly how a run cut off mid-write is told apart from a corrupt line.
async function* readLines(file: string): AsyncGenerator<RunLogLine, void, undefined> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  let pending = '';
  let number = 0;
  for await (const chunk of stream as AsyncIterable<string>) {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      number += 1;
      yield { text: pending.slice(0, newline).replace(/\r$/, ''), number, terminated: true };
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  if (pending !== '') yield { text: pending, number: number + 1, terminated: false };
}

function parseEventLine(file: string, line: RunLogLine): ForgeEvent {
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = line.terminated
      ? `not valid JSON (${reason}).`
      : `truncated: the last line ends without a newline and is not complete JSON (${reason}); the run was probably cut off while writing.`;
    throw new RunLogError(file, line.number, message);
  }
  const format = runLogFormatOf(value);
  if (format !== undefined && format > RUN_LOG_FORMAT_VERSION) {
    throw new RunLogError(
      file,
      line.number,
      `written in run log format ${format}, newer than this build of Forge reads (formats 1 to ${RUN_LOG_FORMAT_VERSION}); upgrade Forge to read it.`,
    );
  }
  const parsed = forgeEventSchema.safeParse(value);
  if (!parsed.success) {
    throw new RunLogError(file, line.number, `not a valid run log event: ${describeIssues(parsed.error.issues)}.`);
  }
  return parsed.data;
}

/** The `log_format` a `run-start` line declares, when it declares a number; the schema judges anything else. */
function runLogFormatOf(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, log_format: format } = value as { type?: unknown; log_format?: unknown };
  return type === 'run-start' && typeof format === 'number' ? format : undefined;
}

function describeIssues(issues: z.ZodError['issues']): string {
  return issues.map((issue) => `${issue.path.length === 0 ? '(event)' : issue.path.join('.')}: ${issue.message}`).join('; ');
}
