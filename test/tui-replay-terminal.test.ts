import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLogWithEscapes } from './fixtures/runs/escape-sequences.js';
import { startTmuxTerminals, type Pane, type TmuxTerminals } from './support/tmux-terminal.js';

// dist/ is built once for the whole suite by test/support/global-setup.ts.
let terminals: TmuxTerminals;
beforeAll(() => {
  terminals = startTmuxTerminals('replay');
}, 180_000);

afterAll(() => {
  terminals.close();
});

describe('forge replay in a real terminal', () => {
  it('steps with keys, plays to the end, leaves the final screen up and quits with q', async () => {
    let pane: Pane | undefined;
    try {
      pane = terminals.start(['replay', 'test/fixtures/runs/convergence-run.jsonl', '--speed', '50', '--paused']);
      await pane.waitForScreen((screen) => screen.includes('⏸ paused · replay 0/77 events at 50×'), 'the paused replay');
      pane.keys('s');
      pane.keys('s');
      pane.keys('Right');
      const stepped = await pane.waitForScreen((screen) => screen.includes('replay 3/77 events'), 'three single steps');
      expect(stepped).toContain('anthropic:claude-sonnet-4-6 iteration 1 thinking');

      pane.keys('Space');
      const final = await pane.waitForScreen((screen) => screen.includes('■ finished'), 'the end of the replay');
      const rows = final.split('\n');
      // The whole view fits the 40-row window: its header is still on the first row.
      expect(rows[0]).toMatch(/^forge run-converge-0002 · anthropic:claude-sonnet-4-6 · Report the latest release/);
      expect(final).toMatch(/✓ fetch_json\s+promoted\s+3\s+0/);
      expect(final).toMatch(/✗ extract_release_date\s+failed\s+0\s+3/);
      expect(final).toContain('Plan 4/4 done');
      expect(final).toContain('turn 6: toolbox ✓ plan ✓ streak 1/1');
      expect(final).toContain('model calls 14 · tokens 31,277 in / 3,949 out · cost $0.1456 · elapsed 40.0s');
      expect(final).toContain('✓ completed (converged)');
      expect(final).toContain('■ finished · replay 77/77 events at 50× · ↑↓ scroll · q quit');
      for (const row of rows) expect([...row].length).toBeLessThanOrEqual(100);

      // Colour is part of the contract: the failed tool is red, the promoted one green.
      const styledRows = pane.styledScreen().split('\n');
      expect(styledRows.find((row) => row.includes('extract_release_date') && row.includes('failed'))).toContain('\u001b[31m✗ extract_release_date');
      expect(styledRows.find((row) => row.includes('fetch_json') && row.includes('promoted'))).toContain('\u001b[32m✓ fetch_json');

      pane.keys('q');
      expect(await pane.waitForExit()).toBe(0);
    } finally {
      terminals.stop(pane);
    }
  }, 60_000);

  it('replays a truncated run up to the bad line, reports it, and exits non-zero', async () => {
    let pane: Pane | undefined;
    try {
      pane = terminals.start(['replay', 'test/fixtures/runs/truncated-run.jsonl', '--speed', '50']);
      const final = await pane.waitForScreen((screen) => screen.includes('■ stopped early'), 'the bad line');
      expect(final).toContain('replay 8/8 events');
      expect(final).toContain('run log error: test/fixtures/runs/truncated-run.jsonl:9: truncated');
      expect(final).toContain('model calls 2 · tokens 2,346 in / 98 out');
      pane.keys('q');
      expect(await pane.waitForExit()).toBe(1);
      expect(pane.screen()).toContain('forge: the replay stopped early: test/fixtures/runs/truncated-run.jsonl:9: truncated');
    } finally {
      terminals.stop(pane);
    }
  }, 60_000);

  it('exits 130 on Ctrl-C, giving the terminal back', async () => {
    let pane: Pane | undefined;
    try {
      pane = terminals.start(['replay', 'test/fixtures/runs/convergence-run.jsonl', '--paused']);
      await pane.waitForScreen((screen) => screen.includes('⏸ paused · replay 0/77 events'), 'the paused replay');
      pane.keys('C-c');
      expect(await pane.waitForExit()).toBe(130);
    } finally {
      terminals.stop(pane);
    }
  }, 60_000);

  it('at 80×24 scrolls the event stream with the arrow keys and End, and shows a failed verification whole', async () => {
    let pane: Pane | undefined;
    try {
      pane = terminals.start(['replay', 'test/fixtures/runs/convergence-run.jsonl', '--speed', '50'], { size: { columns: 80, rows: 24 } });
      const final = await pane.waitForScreen((screen) => screen.includes('■ finished'), 'the end of the replay');
      expect(final).toMatch(/Events 77 events, newest \d+ shown/);
      // Back, entry by entry, until the last failed verification (seq 47) shows its last output row. On
      // every screen on the way its panel is whole (framed from the headline to the last row) or only its headline.
      let screen = final;
      for (let presses = 1; presses <= 40 && !screen.includes('1 of 4 cases failed (sandbox exit 124, 1000 ms)'); presses += 1) {
        pane.keys('Up');
        screen = await pane.waitForScreen((text) => text.includes(`${presses} newer below`), `${presses} entries scrolled back`);
        const rows = screen.split('\n');
        const header = rows.findIndex((row) => row.includes('✗ verification failed: extract_release_date (revision 2)'));
        if (header === -1) continue;
        if (rows[header]!.includes('↑ to see it whole')) continue;
        expect(rows[header - 1]).toMatch(/^│ ╭─+╮ *│$/);
        const bottom = rows.findIndex((row, index) => index > header && /^│ ╰─+╯ *│$/.test(row));
        expect(rows.slice(header, bottom).join('\n')).toContain('1 of 4 cases failed (sandbox exit 124, 1000 ms)');
      }
      expect(screen).toContain('1 of 4 cases failed (sandbox exit 124, 1000 ms)');
      pane.keys('End');
      await pane.waitForScreen((text) => !text.includes('newer below') && text.includes('✓ completed (converged)'), 'the newest entries again');
      pane.keys('q');
      expect(await pane.waitForExit()).toBe(0);
    } finally {
      terminals.stop(pane);
    }
  }, 90_000);

  it('draws a run log full of escape sequences without letting them set the title or the clipboard', async () => {
    let pane: Pane | undefined;
    const log = path.join(terminals.folder, 'escapes.jsonl');
    writeFileSync(log, runLogWithEscapes('run-escapes'));
    // Applications may set tmux buffers through OSC 52 only when set-clipboard is on.
    terminals.command('set-option', '-s', 'set-clipboard', 'on');
    try {
      pane = terminals.start(['replay', log, '--speed', '50']);
      const final = await pane.waitForScreen((screen) => screen.includes('■ finished'), 'the end of the replay');
      expect(final).toContain('page said before');
      expect(final).toContain('after');
      expect(terminals.command('display-message', '-p', '-t', pane.session, '#{pane_title}')).not.toContain('PWNED');
      expect(terminals.command('list-buffers')).toBe('');
      pane.keys('q');
      expect(await pane.waitForExit()).toBe(0);
    } finally {
      terminals.stop(pane);
    }
  }, 60_000);
});
