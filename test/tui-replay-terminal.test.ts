import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLogWithEscapes } from './fixtures/runs/escape-sequences.js';

/**
 * Drives the real `forge` binary in a pseudo-terminal: tmux runs `node bin/forge.js replay …` in a
 * 100×40 window, keys go in with send-keys, and the screen is read back with capture-pane. Everything
 * runs on a private tmux server (its own socket in a temporary folder) that is killed afterwards.
 */

const root = path.resolve(import.meta.dirname, '..');
const tmux = '/usr/bin/tmux';
const socketFolder = mkdtempSync(path.join(tmpdir(), 'forge-tmux-'));
const socket = path.join(socketFolder, 'server');
const screenWaitMs = 15_000;
const pollMs = 100;
let sessionCounter = 0;
const exitMarker = '[forge exited with status ';

function tmuxCommand(...args: string[]): string {
  return execFileSync(tmux, ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

interface Pane {
  readonly session: string;
  /** The screen as text, with any line the terminal wrapped joined again (so a too-wide row shows as one). */
  screen(): string;
  /** The screen with colour escape sequences kept. */
  styledScreen(): string;
  keys(...keys: string[]): void;
  waitForScreen(predicate: (screen: string) => boolean, what: string): Promise<string>;
  waitForExit(): Promise<number>;
}

/** Starts `node bin/forge.js <args>` in a fresh 100×40 window with a clean environment. */
function startForge(args: readonly string[]): Pane {
  sessionCounter += 1;
  const session = `replay-${process.pid}-${sessionCounter}`;
  tmuxCommand('new-session', '-d', '-s', session, '-x', '100', '-y', '40', '-c', root, 'sleep 600');
  // Keep the pane after the process exits, so its last screen can be read.
  tmuxCommand('set-option', '-t', session, 'remain-on-exit', 'on');
  const environment = ['env', '-i', `PATH=${process.env['PATH'] ?? ''}`, `HOME=${process.env['HOME'] ?? root}`, 'TERM=xterm-256color', 'LANG=C.UTF-8'];
  const forge = ['node', 'bin/forge.js', ...args].map(shellQuote).join(' ');
  // A detached tmux server does not always reap its pane's process (it lingers as a zombie and the pane
  // never reads as dead), so a shell reports the exit status on the screen instead.
  const command = [...environment, 'sh', '-c', `${forge}; echo "${exitMarker}$?]"`].map(shellQuote).join(' ');
  tmuxCommand('respawn-pane', '-k', '-t', session, command);
  const pane: Pane = {
    session,
    screen: () => tmuxCommand('capture-pane', '-p', '-J', '-t', session),
    styledScreen: () => tmuxCommand('capture-pane', '-p', '-e', '-t', session),
    keys: (...keys) => {
      tmuxCommand('send-keys', '-t', session, ...keys);
    },
    async waitForScreen(predicate, what) {
      const deadline = Date.now() + screenWaitMs;
      let screen = pane.screen();
      while (!predicate(screen)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        screen = pane.screen();
      }
      return screen;
    },
    async waitForExit() {
      const screen = await pane.waitForScreen((text) => text.includes(exitMarker), 'forge to exit');
      return Number(/\[forge exited with status (\d+)\]/.exec(screen)?.[1]);
    },
  };
  return pane;
}

function shellQuote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function stopSession(pane: Pane | undefined): void {
  if (pane === undefined) return;
  spawnSync(tmux, ['-S', socket, 'kill-session', '-t', pane.session], { stdio: 'ignore' });
}

// dist/ is built once for the whole suite by test/support/global-setup.ts.
beforeAll(() => {
  // The server exits with its last session; this idle one keeps it up between tests so that starting the
  // next session never races a server on its way out.
  tmuxCommand('new-session', '-d', '-s', 'keeper', 'sleep 600');
}, 180_000);

afterAll(() => {
  spawnSync(tmux, ['-S', socket, 'kill-server'], { stdio: 'ignore' });
  rmSync(socketFolder, { recursive: true, force: true });
});

describe('forge replay in a real terminal', () => {
  it('steps with keys, plays to the end, leaves the final screen up and quits with q', async () => {
    let pane: Pane | undefined;
    try {
      pane = startForge(['replay', 'test/fixtures/runs/convergence-run.jsonl', '--speed', '50', '--paused']);
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
      expect(final).toContain('■ finished · replay 77/77 events at 50× · q quit');
      for (const row of rows) expect([...row].length).toBeLessThanOrEqual(100);

      // Colour is part of the contract: the failed tool is red, the promoted one green.
      const styledRows = pane.styledScreen().split('\n');
      expect(styledRows.find((row) => row.includes('extract_release_date') && row.includes('failed'))).toContain('\u001b[31m✗ extract_release_date');
      expect(styledRows.find((row) => row.includes('fetch_json') && row.includes('promoted'))).toContain('\u001b[32m✓ fetch_json');

      pane.keys('q');
      expect(await pane.waitForExit()).toBe(0);
    } finally {
      stopSession(pane);
    }
  }, 60_000);

  it('replays a truncated run up to the bad line, reports it, and exits non-zero', async () => {
    let pane: Pane | undefined;
    try {
      pane = startForge(['replay', 'test/fixtures/runs/truncated-run.jsonl', '--speed', '50']);
      const final = await pane.waitForScreen((screen) => screen.includes('■ stopped early'), 'the bad line');
      expect(final).toContain('replay 8/8 events');
      expect(final).toContain('run log error: test/fixtures/runs/truncated-run.jsonl:9: truncated');
      expect(final).toContain('model calls 2 · tokens 2,346 in / 98 out');
      pane.keys('q');
      expect(await pane.waitForExit()).toBe(1);
      expect(pane.screen()).toContain('forge: the replay stopped early: test/fixtures/runs/truncated-run.jsonl:9: truncated');
    } finally {
      stopSession(pane);
    }
  }, 60_000);

  it('draws a run log full of escape sequences without letting them set the title or the clipboard', async () => {
    let pane: Pane | undefined;
    const log = path.join(socketFolder, 'escapes.jsonl');
    writeFileSync(log, runLogWithEscapes('run-escapes'));
    // Applications may set tmux buffers through OSC 52 only when set-clipboard is on.
    tmuxCommand('set-option', '-s', 'set-clipboard', 'on');
    try {
      pane = startForge(['replay', log, '--speed', '50']);
      const final = await pane.waitForScreen((screen) => screen.includes('■ finished'), 'the end of the replay');
      expect(final).toContain('page said before');
      expect(final).toContain('after');
      expect(tmuxCommand('display-message', '-p', '-t', pane.session, '#{pane_title}')).not.toContain('PWNED');
      expect(tmuxCommand('list-buffers')).toBe('');
      pane.keys('q');
      expect(await pane.waitForExit()).toBe(0);
    } finally {
      stopSession(pane);
    }
  }, 60_000);
});
