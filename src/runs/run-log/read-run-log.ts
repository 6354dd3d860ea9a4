import { constants, createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { z } from 'zod';
import { NotFoundError, RUN_LOG_FORMAT_VERSION, RunLogError, forgeEventSchema } from '../../core/index.js';
import type { ForgeEvent } from '../../core/index.js';

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
  /** The last event read and its line; absent when none was. */
  readonly last?: RunLogEntry;
}

/** An event of a run log with the number of the line it was read from. */
export interface RunLogEntry {
  readonly event: ForgeEvent;
  readonly line: number;
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
  for await (const entry of iterateRunLogEntries(file)) yield entry.event;
}

/** `iterateRunLog` with each event's line number, for readers that report where a log stops. */
export async function* iterateRunLogEntries(file: string): AsyncGenerator<RunLogEntry, void, undefined> {
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
    yield { event, line: line.number };
  }
}

/**
 * Why a run log read without a bad line still does not tell a whole run, or undefined when its last
 * event is `run-end`: it holds no event at all, it stops at a `run-pause` (the run waits for an
 * approval), or it stops anywhere else (the run was cut off, or is still running). `last` is the final
 * event read and the line it was on.
 */
export function unendedRunLogError(file: string, last: RunLogEntry | undefined): RunLogError | undefined {
  if (last === undefined) return new RunLogError(file, 0, 'holds no event: the run never started, or its log was emptied.');
  if (last.event.type === 'run-end') return undefined;
  if (last.event.type === 'run-pause') {
    return new RunLogError(file, last.line, `ends with run-pause: run ${last.event.run_id} waits for an approval and has not ended (see \`forge approvals list\`).`);
  }
  return new RunLogError(
    file,
    last.line,
    `ends with ${last.event.type}, without run-end: run ${last.event.run_id} was cut off (a crash or a kill), or is still running (see \`forge runs list\`).`,
  );
}

/**
 * Reads a whole run log. Never throws for bad content: a bad line ends the read and is returned as
 * `error` beside the events before it, so callers (replay, stats) can show what there is and then report.
 * A missing file still throws `NotFoundError`, because there is nothing to show.
 */
export async function readRunLog(file: string): Promise<RunLogReadResult> {
  const events: ForgeEvent[] = [];
  let last: RunLogEntry | undefined;
  try {
    for await (const entry of iterateRunLogEntries(file)) {
      events.push(entry.event);
      last = entry;
    }
  } catch (error) {
    if (error instanceof RunLogError) return { events, error, ...(last === undefined ? {} : { last }) };
    throw error;
  }
  return { events, ...(last === undefined ? {} : { last }) };
}

async function assertReadableFile(file: string): Promise<void> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new RunLogError(file, 0, 'not a file; pass the path of a .jsonl run log.');
    await access(file, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new NotFoundError('run log file', file, 'Pass the path of a .jsonl run log, e.g. one under $FORGE_HOME/runs/.');
    }
    if (code === 'EACCES' || code === 'EPERM') throw new RunLogError(file, 0, `cannot be read (${code}: permission denied); give your user read access, e.g. chmod u+r ${file}.`);
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
