import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT } from './command-errors.js';

/** The running-agents guide lists every exit code the CLI uses, so scripts can rely on it. */
describe('the documented exit codes', () => {
  it('name every code the CLI exits with', () => {
    const guide = readFileSync(new URL('../../docs/running-agents.md', import.meta.url), 'utf8');
    const line = /Exit codes: ([^\n]+)/.exec(guide)?.[1] ?? '';
    const documented = new Set([...line.matchAll(/(\d+) [a-z]/g)].map((match) => Number(match[1])));
    for (const [meaning, code] of Object.entries(EXIT)) expect(documented.has(code), `exit code ${code} (${meaning})`).toBe(true);
  });
});
