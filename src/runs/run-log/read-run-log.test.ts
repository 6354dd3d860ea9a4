import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, RUN_LOG_FORMAT_VERSION, RunLogError } from '../../core/index.js';
import type { ForgeEvent } from '../../core/index.js';
import { InProcessEventBus, createRunEmitter } from '../../events/index.js';
import { iterateRunLog, readRunLog } from './read-run-log.js';

const fixtures = path.resolve(import.meta.dirname, '../../../test/fixtures/runs');
const fixture = (name: string) => path.join(fixtures, name);

const scratchFolders: string[] = [];
function scratchFile(content: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'forge-run-log-'));
  scratchFolders.push(folder);
  const file = path.join(folder, 'run.jsonl');
  writeFileSync(file, content);
  return file;
}
afterEach(() => {
  for (const folder of scratchFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function plainRunLines(): string[] {
  return readFileSync(fixture('plain-agent-run.jsonl'), 'utf8').trimEnd().split('\n');
}

describe('readRunLog', () => {
  it('reads every event of a complete run log, in order', async () => {
    const { events, error } = await readRunLog(fixture('plain-agent-run.jsonl'));
    expect(error).toBeUndefined();
    expect(events).toHaveLength(15);
    expect(events.map((event) => event.seq)).toEqual([...Array(15).keys()]);
    expect(events[0]?.type).toBe('run-start');
    expect(events.at(-1)?.type).toBe('run-end');
  });

  it('returns the events before a truncated last line and reports the line as truncated', async () => {
    const { events, error } = await readRunLog(fixture('truncated-run.jsonl'));
    expect(events).toHaveLength(8);
    expect(events.at(-1)?.seq).toBe(7);
    expect(error).toBeInstanceOf(RunLogError);
    expect(error?.line).toBe(9);
    expect(error?.file).toBe(fixture('truncated-run.jsonl'));
    expect(error?.message).toContain('truncated-run.jsonl:9: truncated');
  });

  it('stops at a line that is JSON but not a valid event, naming the bad field, and delivers nothing after it', async () => {
    const { events, error } = await readRunLog(fixture('invalid-event-run.jsonl'));
    expect(events.map((event) => event.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(error?.line).toBe(8);
    expect(error?.message).toContain('tokens.input');
    expect(error?.message).toContain('expected number');
  });

  it('reports a line that is not JSON with its number, even when later lines are fine', async () => {
    const lines = plainRunLines();
    const file = scratchFile([lines[0], lines[1], '{"ts": oops', lines[2]].join('\n') + '\n');
    const { events, error } = await readRunLog(file);
    expect(events).toHaveLength(2);
    expect(error?.line).toBe(3);
    expect(error?.message).toContain('not valid JSON');
  });

  it('names an unknown event type', async () => {
    const lines = plainRunLines();
    const file = scratchFile([lines[0], JSON.stringify({ ts: '2025-06-01T09:00:00.001Z', run_id: 'run-plain-0001', seq: 1, type: 'tool-started' })].join('\n'));
    const { events, error } = await readRunLog(file);
    expect(events).toHaveLength(1);
    expect(error?.line).toBe(2);
    expect(error?.message).toContain('type:');
  });

  it('catches a lost event by the gap in seq', async () => {
    const lines = plainRunLines();
    const file = scratchFile([lines[0], lines[1], lines[3]].join('\n') + '\n');
    const { events, error } = await readRunLog(file);
    expect(events).toHaveLength(2);
    expect(error?.line).toBe(3);
    expect(error?.message).toContain('seq 3');
    expect(error?.message).toContain('does not follow seq 1');
  });

  it('accepts blank lines, CRLF line ends and a complete last line without a newline', async () => {
    const lines = plainRunLines();
    const file = scratchFile(`${lines[0]}\r\n\r\n${lines[1]}\r\n   \n${lines[2]}`);
    const { events, error } = await readRunLog(file);
    expect(error).toBeUndefined();
    expect(events.map((event) => event.type)).toEqual(['run-start', 'model-call-start', 'model-call']);
  });

  it('reads a log written before formats were numbered (format 1: its run-start has no log_format)', async () => {
    expect(JSON.parse(plainRunLines()[0]!)).not.toHaveProperty('log_format');

    const { events, error } = await readRunLog(fixture('plain-agent-run.jsonl'));

    expect(error).toBeUndefined();
    expect(events).toHaveLength(15);
    expect(events[0]).toMatchObject({ type: 'run-start', tools: ['web_search', 'read_page', 'write_file'] });
    expect(events[0]).not.toHaveProperty('log_format');
  });

  it('reads a log in the format this build writes, stamped on run-start by the emitter and on nothing else', async () => {
    const written: ForgeEvent[] = [];
    const bus = new InProcessEventBus();
    bus.subscribe((event) => written.push(event));
    const emitter = createRunEmitter(bus, 'run-current');
    emitter.emit({ type: 'run-start', task: 'task', model: 'none', max_iterations: 1, conversation_id: null, tools: [] });
    emitter.emit({ type: 'model-call-start', model: 'none', iteration: 1 });
    const file = scratchFile(written.map((event) => `${JSON.stringify(event)}\n`).join(''));

    const { events, error } = await readRunLog(file);

    expect(RUN_LOG_FORMAT_VERSION).toBe(2);
    expect(error).toBeUndefined();
    expect(events).toEqual(written);
    expect(events.map((event) => 'log_format' in event)).toEqual([true, false]);
    expect(events[0]).toMatchObject({ type: 'run-start', log_format: RUN_LOG_FORMAT_VERSION });
  });

  it('refuses a log of a newer format by name, before judging the shape of its events', async () => {
    // Kept apart from the recorded runs (all format 1), which the TUI fixtures test reads as valid events.
    const { events, error } = await readRunLog(path.resolve(fixtures, '../run-log-formats/future-format-run.jsonl'));

    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(RunLogError);
    expect(error?.line).toBe(1);
    expect(error?.message).toContain(`future-format-run.jsonl:1: written in run log format 3, newer than this build of Forge reads (formats 1 to ${RUN_LOG_FORMAT_VERSION}); upgrade Forge`);
    // Not a complaint about the reshaped run-start: the version is judged first.
    expect(error?.message).not.toContain('tools');
  });

  it('throws NotFoundError for a missing file', async () => {
    await expect(readRunLog(path.join(fixtures, 'no-such-run.jsonl'))).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('iterateRunLog', () => {
  it('yields every good event before throwing at the bad line', async () => {
    const seen: ForgeEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of iterateRunLog(fixture('truncated-run.jsonl'))) seen.push(event);
    } catch (error) {
      caught = error;
    }
    expect(seen).toHaveLength(8);
    expect(caught).toBeInstanceOf(RunLogError);
    expect((caught as RunLogError).line).toBe(9);
  });

  it('streams: a consumer that stops early never reads the bad line', async () => {
    const seen: ForgeEvent[] = [];
    for await (const event of iterateRunLog(fixture('invalid-event-run.jsonl'))) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    expect(seen.map((event) => event.seq)).toEqual([0, 1, 2]);
  });
});
