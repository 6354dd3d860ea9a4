import { describe, expect, it } from 'vitest';
import { hintTable } from './demo-command.js';

describe("the demo's hint table", () => {
  it('puts every description in one column, a too-long command on its own line', () => {
    const table = hintTable([
      ['forge skill list', 'the skill the demo saved'],
      ['forge skill test latest-release-notes-of-a-long-name', 'offline, against the recording'],
      ['forge replay /home/someone/.forge/runs/2026-12-06/3f2c9a1b7e40.jsonl', 'the full run again'],
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(5);
    const column = (line: string, text: string) => line.indexOf(text);
    expect(column(lines[0]!, 'the skill the demo saved')).toBe(40);
    expect(lines[1]).toBe('  forge skill test latest-release-notes-of-a-long-name');
    expect(column(lines[2]!, 'offline')).toBe(40);
    expect(column(lines[4]!, 'the full run again')).toBe(40);
  });
});
