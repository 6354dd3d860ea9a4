import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { startTmuxTerminals, type Pane, type TmuxTerminals } from './support/tmux-terminal.js';

/**
 * `forge run` in a real terminal (tmux) against aimock streaming its answer slowly, a few characters
 * every quarter second: the live view must show the text while the model is still writing it.
 */

const answer = 'Streaming lets a reader start at once: the first words arrive long before the last ones are written.';

// dist/ is built once for the whole suite by test/support/global-setup.ts.
let terminals: TmuxTerminals;
let world: EngineWorld;
beforeAll(async () => {
  terminals = startTmuxTerminals('live');
  world = await startEngineWorld();
  world.mock.on({ userMessage: 'Stream something long' }, { content: `${answer} `.repeat(8), usage: { prompt_tokens: 40, completion_tokens: 180, total_tokens: 220 } }, { chunkSize: 6, latency: 250 });
  world.mock.on({ userMessage: 'Why stream model output?' }, { content: answer, usage: { prompt_tokens: 40, completion_tokens: 22, total_tokens: 62 } }, { chunkSize: 6, latency: 250 });
}, 180_000);

afterAll(async () => {
  terminals.close();
  await world.close();
});

describe('forge run in a real terminal', () => {
  it("streams the model's answer into the view as it is generated, and shows it once", async () => {
    let pane: Pane | undefined;
    try {
      const { PATH: _path, ...env } = world.env;
      pane = terminals.start(['run', 'Why stream model output?', '--model', 'openai:gpt-4.1-mini', '--max-iterations', '2'], { env: { ...env, HOME: world.home } });
      const partial = await pane.waitForScreen((screen) => screen.includes('streaming…') && screen.includes('Streaming lets a reader'), 'the answer streaming in');
      // Mid-stream: the beginning is there, the end is not written yet.
      expect(partial).not.toContain('the last ones are written.');
      expect(await pane.waitForExit()).toBe(0);
      const final = pane.screen();
      expect(final).not.toContain('streaming…');
      expect(final).toContain('printed in full below');
      // Once: printed under the view, not repeated inside it.
      expect(final.split(answer).length - 1).toBe(1);
    } finally {
      terminals.stop(pane);
    }
  }, 90_000);

  it('scrolls the live stream with the keys and still stops the run on Ctrl-C, exiting 130', async () => {
    let pane: Pane | undefined;
    try {
      const { PATH: _path, ...env } = world.env;
      pane = terminals.start(['run', 'Stream something long', '--model', 'openai:gpt-4.1-mini', '--max-iterations', '2'], { env: { ...env, HOME: world.home } });
      await pane.waitForScreen((screen) => screen.includes('streaming…'), 'the answer streaming in');
      // The view reads keys: ↑ scrolls the stream back (the draft and the newest entry go below), End follows again.
      pane.keys('Up');
      await pane.waitForScreen((screen) => screen.includes('1 newer below') && !screen.includes('streaming…'), 'the stream scrolled back');
      pane.keys('End');
      await pane.waitForScreen((screen) => !screen.includes('newer below') && screen.includes('streaming…'), 'the stream following the newest again');
      pane.keys('C-c');
      expect(await pane.waitForExit()).toBe(130);
      expect(pane.screen()).toContain('forge: Run cancelled: interrupted by the user (Ctrl-C)');
    } finally {
      terminals.stop(pane);
    }
  }, 90_000);
});
