import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLiveEventBus, type ForgeEvent, type LiveEvent } from '../src/core/index.js';
import { readRunLog } from '../src/runs/run-log/index.js';
import { openRuntime, runTask } from '../src/compose/index.js';
import { runCli } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

const answer = 'Deltas reach the watcher as the model writes; the run log keeps only the whole text, once.';

/** A sandboxed tool that writes two `forge.log` lines per call. */
const wordCountTool = `export const meta = {
  name: 'word_count',
  description: 'Counts the words in a text and reports the longest word.',
  input: { type: 'object', properties: { text: { type: 'string', description: 'Any text' } }, required: ['text'] },
  capabilities: ['log'],
};

export default async function run(input, forge) {
  const words = input.text.split(/\\s+/).filter((word) => word.length > 0);
  forge.log('counted ' + words.length + ' words');
  const longest = words.reduce((best, word) => (word.length > best.length ? word : best), '');
  forge.log('longest: ' + longest);
  return { count: words.length, longest };
}`;

const wordCountTest = `export default async function test(tool, assert) {
  assert.deepEqual(await tool({ text: 'the quick  brown\\nfox' }), { count: 4, longest: 'quick' });
  assert.equal((await tool({ text: '   ' })).count, 0);
  assert.equal((await tool({ text: 'one' })).longest, 'one');
}`;

describe('live text and tool logs', () => {
  let world: EngineWorld;

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: 'How do deltas travel?' }, { content: answer, usage: { prompt_tokens: 30, completion_tokens: 20, total_tokens: 50 } }, { chunkSize: 7 });
  });
  afterAll(async () => {
    await world.close();
  });

  it("publishes the model's text piece by piece as live events before assistant-text, and records none of them", async () => {
    const runtime = await openRuntime(world.env, world.home);
    const seen: Array<ForgeEvent | LiveEvent> = [];
    expect(isLiveEventBus(runtime.bus)).toBe(true);
    const unsubscribeLive = isLiveEventBus(runtime.bus) ? runtime.bus.subscribeLive((event) => seen.push(event)) : () => {};
    const unsubscribe = runtime.bus.subscribe((event) => seen.push(event));
    const result = await runTask(runtime, { task: 'How do deltas travel?', model: 'openai:gpt-4.1-mini', maxRetries: 0 });
    unsubscribe();
    unsubscribeLive();
    const stored = await runtime.store.events.list(result.run_id);
    await runtime.close();

    expect(result).toMatchObject({ status: 'completed', answer, llm_calls: 1 });
    const deltas = seen.filter((event): event is LiveEvent => event.type === 'assistant-text-delta');
    expect(deltas.length).toBe(Math.ceil(answer.length / 7));
    expect(deltas.map((event) => event.delta).join('')).toBe(answer);
    expect(deltas.every((event) => event.run_id === result.run_id && event.iteration === 1)).toBe(true);
    // Every piece comes before the call ends and its whole text is emitted.
    const types = seen.map((event) => event.type);
    expect(types.lastIndexOf('assistant-text-delta')).toBeLessThan(types.indexOf('model-call'));
    expect(types.indexOf('model-call')).toBeLessThan(types.indexOf('assistant-text'));

    // Neither the run log nor the store holds a delta; the log reads whole, its seqs dense.
    const log = await readRunLog(result.log_file);
    expect(log.error).toBeUndefined();
    for (const events of [log.events, stored]) {
      expect(events.map((event) => event.type)).not.toContain('assistant-text-delta');
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    }
    expect(log.events.filter((event) => event.type === 'assistant-text')).toHaveLength(1);
  });

  it("records a sandboxed tool's forge.log lines as a tool-log event before its result, shown by the plain trace and the replay", async () => {
    const work = path.join(world.home, 'work');
    await mkdir(work, { recursive: true });
    await writeFile(path.join(work, 'word-count.js'), wordCountTool);
    await writeFile(path.join(work, 'word-count.test.js'), wordCountTest);
    const env = { FORGE_HOME: world.home, HOME: world.home };
    const added = await runCli(['tools', 'add', path.join(work, 'word-count.js'), '--test', path.join(work, 'word-count.test.js')], env);
    expect(added.code, added.stderr).toBe(0);

    const called = await runCli(['tools', 'call', 'word_count', '--input', JSON.stringify({ text: 'a quick fox' })], env);
    expect(called.code, called.stderr).toBe(0);
    const lines = called.stderr.split('\n');
    const logLine = lines.findIndex((line) => line.includes(' tool-log '));
    expect(lines[logLine]).toContain('word_count logged 2 lines');
    expect(lines[logLine]).toContain('lines=["counted 3 words","longest: quick"]');
    expect(logLine).toBeLessThan(lines.findIndex((line) => line.includes(' tool-result ')));
    // The model's view of the call (its output) carries no log lines.
    expect(called.stdout).not.toContain('counted 3 words');

    const runs = path.join(world.home, 'runs');
    const logs = (await readdir(runs)).filter((name) => name.endsWith('.jsonl'));
    const withLog = [];
    for (const name of logs) if ((await readFile(path.join(runs, name), 'utf8')).includes('"type":"tool-log"')) withLog.push(path.join(runs, name));
    expect(withLog).toHaveLength(1);
    const replayed = await runCli(['replay', withLog[0]!, '--no-tui'], env);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain('lines=["counted 3 words","longest: quick"]');
  });
});
