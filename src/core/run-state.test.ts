import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_STATE_VERSION, RunStateError, parseRunState } from './run-state.js';

const corpus = path.resolve(import.meta.dirname, '../../test/fixtures/run-states');

async function load(name: string): Promise<unknown> {
  return JSON.parse(await readFile(path.join(corpus, name), 'utf8')) as unknown;
}

/** Every stored run state a Forge may meet: current versions load, newer and malformed ones are refused by name. */
describe('parseRunState over the fixture corpus', () => {
  it('covers every file of the corpus', async () => {
    const files = (await readdir(corpus)).sort();
    expect(files.filter((name) => !/^(v\d+-|future-|malformed-)/.test(name))).toEqual([]);
    expect(files.filter((name) => name.startsWith('v')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(['v1-agent-pending-call.json', 'v1-converge.json'])('loads %s upgraded: its model slug, with no base URL and no settings', async (name) => {
    const raw = (await load(name)) as { model: string };
    const state = parseRunState('a1b2c3d4e5f6', raw);
    expect(state).toEqual({ ...raw, version: RUN_STATE_VERSION, model: { slug: raw.model, base_url: null, settings: {} } });
  });

  it('loads a version 2 state as it was written, its model whole (slug, base URL, settings)', async () => {
    const raw = await load('v2-agent-compatible-model.json');
    const state = parseRunState('a1b2c3d4e5f6', raw);
    expect(state).toEqual(raw);
    expect(state.model).toEqual({ slug: 'openai-compatible:llama3', base_url: 'http://127.0.0.1:8080/v1', settings: { temperature: 0.2, max_output_tokens: 800 } });
  });

  it('refuses a state a newer Forge wrote, saying which version reads it', async () => {
    const raw = await load('future-v3.json');
    expect(() => parseRunState('a1b2c3d4e5f6', raw)).toThrow(`it is version 3; this Forge reads up to version ${RUN_STATE_VERSION}`);
  });

  it.each([
    ['malformed-no-messages.json', 'messages'],
    ['malformed-system-message.json', 'messages.0.role'],
    ['malformed-pending-without-id.json', 'pending.0.call_id'],
    ['malformed-not-a-state.json', '(state)'],
    ['malformed-other-run.json', 'belongs to run ffffffffffff'],
  ])('refuses %s, naming %s', async (name, named) => {
    const raw = await load(name);
    let caught: unknown;
    try {
      parseRunState('a1b2c3d4e5f6', raw);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RunStateError);
    expect((caught as Error).message).toContain('a1b2c3d4e5f6');
    expect((caught as Error).message).toContain(named);
  });
});
