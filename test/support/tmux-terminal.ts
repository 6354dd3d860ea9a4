import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Drives the real `forge` binary in a pseudo-terminal: tmux runs `node bin/forge.js …` in a window of a
 * chosen size, keys go in with send-keys, and the screen is read back with capture-pane. Everything runs
 * on a private tmux server (its own socket in a temporary folder) that `close` kills.
 */

const root = path.resolve(import.meta.dirname, '../..');
const tmux = '/usr/bin/tmux';
const screenWaitMs = 15_000;
const pollMs = 100;
const exitMarker = '[forge exited with status ';

export interface Pane {
  readonly session: string;
  /** The screen as text, with any line the terminal wrapped joined again (so a too-wide row shows as one). */
  screen(): string;
  /** The screen with colour escape sequences kept. */
  styledScreen(): string;
  keys(...keys: string[]): void;
  waitForScreen(predicate: (screen: string) => boolean, what: string): Promise<string>;
  waitForExit(): Promise<number>;
}

export interface ForgeInTerminal {
  /** Window size; default 100×40. */
  readonly size?: { readonly columns: number; readonly rows: number };
  /** Variables added to the clean environment (PATH, HOME, TERM, LANG). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface TmuxTerminals {
  /** A temporary folder removed by `close`, for files the tests write. */
  readonly folder: string;
  /** Starts `node bin/forge.js <args>` in a fresh window with a clean environment. */
  start(args: readonly string[], options?: ForgeInTerminal): Pane;
  /** Ends a pane's session; nothing for undefined. */
  stop(pane: Pane | undefined): void;
  command(...args: string[]): string;
  close(): void;
}

export function startTmuxTerminals(prefix: string): TmuxTerminals {
  const folder = mkdtempSync(path.join(tmpdir(), 'forge-tmux-'));
  const socket = path.join(folder, 'server');
  let sessionCounter = 0;
  const command = (...args: string[]): string => execFileSync(tmux, ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  // The server exits with its last session; this idle one keeps it up between tests so that starting the
  // next session never races a server on its way out.
  command('new-session', '-d', '-s', 'keeper', 'sleep 600');
  return {
    folder,
    command,
    start(args, { size = { columns: 100, rows: 40 }, env = {} } = {}) {
      sessionCounter += 1;
      const session = `${prefix}-${process.pid}-${sessionCounter}`;
      command('new-session', '-d', '-s', session, '-x', String(size.columns), '-y', String(size.rows), '-c', root, 'sleep 600');
      // Keep the pane after the process exits, so its last screen can be read.
      command('set-option', '-t', session, 'remain-on-exit', 'on');
      const extra = Object.entries(env).map(([name, value]) => `${name}=${value}`);
      const environment = ['env', '-i', `PATH=${process.env['PATH'] ?? ''}`, `HOME=${env['HOME'] ?? process.env['HOME'] ?? root}`, 'TERM=xterm-256color', 'LANG=C.UTF-8', ...extra];
      const forge = ['node', 'bin/forge.js', ...args].map(shellQuote).join(' ');
      // A detached tmux server does not always reap its pane's process (it lingers as a zombie and the pane
      // never reads as dead), so a shell reports the exit status on the screen instead.
      const line = [...environment, 'sh', '-c', `${forge}; echo "${exitMarker}$?]"`].map(shellQuote).join(' ');
      command('respawn-pane', '-k', '-t', session, line);
      const pane: Pane = {
        session,
        screen: () => command('capture-pane', '-p', '-J', '-t', session),
        styledScreen: () => command('capture-pane', '-p', '-e', '-t', session),
        keys: (...keys) => {
          command('send-keys', '-t', session, ...keys);
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
    },
    stop(pane) {
      if (pane === undefined) return;
      spawnSync(tmux, ['-S', socket, 'kill-session', '-t', pane.session], { stdio: 'ignore' });
    },
    close() {
      spawnSync(tmux, ['-S', socket, 'kill-server'], { stdio: 'ignore' });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function shellQuote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
