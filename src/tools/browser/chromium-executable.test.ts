import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserUnavailableError } from './browser-errors.js';
import { findChromium } from './chromium-executable.js';

const folder = mkdtempSync(join(tmpdir(), 'forge-chromium-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function thrown(action: () => unknown): BrowserUnavailableError {
  try {
    action();
  } catch (error) {
    if (error instanceof BrowserUnavailableError) return error;
    throw error;
  }
  throw new Error('expected a BrowserUnavailableError');
}

describe('findChromium', () => {
  it('takes FORGE_CHROMIUM_PATH when it names an executable file', () => {
    const executable = join(folder, 'chrome');
    writeFileSync(executable, '#!/bin/sh\n');
    chmodSync(executable, 0o755);
    expect(findChromium({ FORGE_CHROMIUM_PATH: ` ${executable} ` })).toBe(executable);
  });

  it('reports a FORGE_CHROMIUM_PATH that is missing, not executable or a folder, without looking elsewhere', () => {
    const plain = join(folder, 'not-executable');
    writeFileSync(plain, 'text');
    chmodSync(plain, 0o644);
    for (const path of [join(folder, 'missing'), plain, folder]) {
      const error = thrown(() => findChromium({ FORGE_CHROMIUM_PATH: path }));
      expect(error.message).toBe(`The browser tools are unavailable: FORGE_CHROMIUM_PATH is ${path}, which is not an executable file.`);
      expect(error.tried).toEqual([path]);
      expect(error.hint).toContain('FORGE_CHROMIUM_PATH');
    }
  });

  it('otherwise takes the first candidate that is an executable file, or names every place it looked', () => {
    const executable = join(folder, 'chromium');
    writeFileSync(executable, '#!/bin/sh\n');
    chmodSync(executable, 0o755);
    const missing = join(folder, 'chromium-browser');
    expect(findChromium({ FORGE_CHROMIUM_PATH: '' }, [missing, folder, executable])).toBe(executable);
    const error = thrown(() => findChromium({}, [missing, folder]));
    expect(error.message).toBe(`The browser tools are unavailable: no Chromium or Chrome was found (looked for ${missing}, ${folder}).`);
    expect(error.tried).toEqual([missing, folder]);
  });
});
