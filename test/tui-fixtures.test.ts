import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgeEventSchema } from '../src/core/index.js';

const folder = path.resolve(import.meta.dirname, 'fixtures/runs');
/** Fixtures that are broken on purpose, with the 1-based line where they break. */
const deliberatelyBroken: Record<string, number> = { 'truncated-run.jsonl': 9, 'invalid-event-run.jsonl': 8 };
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('recorded run fixtures', () => {
  const files = readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort();

  it('include a plain run, a convergence run, a skill replay and broken files', () => {
    expect(files).toEqual(['convergence-run.jsonl', 'invalid-event-run.jsonl', 'plain-agent-run.jsonl', 'skill-replay-run.jsonl', 'truncated-run.jsonl']);
  });

  for (const name of files) {
    it(`${name}: every line before the deliberate break is a valid event, seq is dense from 0, ts is ISO`, () => {
      const lines = readFileSync(path.join(folder, name), 'utf8').split('\n').filter((line) => line !== '');
      const breakLine = deliberatelyBroken[name];
      const good = breakLine === undefined ? lines : lines.slice(0, breakLine - 1);
      expect(good.length).toBeGreaterThan(5);
      good.forEach((line, index) => {
        const event = forgeEventSchema.parse(JSON.parse(line));
        expect(event.seq).toBe(index);
        expect(event.ts).toMatch(isoTimestamp);
        expect(event.run_id).toBe(forgeEventSchema.parse(JSON.parse(good[0] ?? '')).run_id);
      });
      if (breakLine !== undefined) {
        const bad = lines[breakLine - 1] ?? '';
        expect(() => forgeEventSchema.parse(JSON.parse(bad))).toThrow();
      }
    });
  }
});
