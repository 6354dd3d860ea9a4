import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLifecycleDemo, type DemoReport } from '../src/demo/index.js';

const run = promisify(execFile);

async function forge(home: string, ...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: { ...process.env, FORGE_HOME: home, FORGE_DATABASE_URL: '' } });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe('forge demo: the lifecycle offline, from a recorded model session', () => {
  let home: string;
  let report: DemoReport;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-demo-'));
    // A key for a server that does not exist: the demo must not use it.
    report = await runLifecycleDemo({ FORGE_HOME: home, OPENAI_API_KEY: 'sk-unused', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', FORGE_MODEL: 'openai:gpt-4.1-mini' });
  });

  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('runs the agent from the cassette, then replays three other topics with no model call', () => {
    expect(report.rows.map((row) => [row.kind, row.topic, row.status, row.llm_calls, row.strategy])).toEqual([
      ['agent (recorded model session)', 'lumen', 'completed', 3, null],
      ['skill replay', 'tessera', 'completed', 0, 'heuristic'],
      ['skill replay', 'kestrel', 'completed', 0, 'heuristic'],
      ['skill replay', 'marlin', 'completed', 0, 'heuristic'],
    ]);
    expect(report.rows[0]!.tokens).toEqual({ input: 2947, output: 117 });
    for (const row of report.rows) expect(new URL(row.url!).host.replace(/:\d+$/, '')).toBe(`docs.${row.topic}.dev`);
    expect(report.home).toBe(home);
  });

  it('leaves a skill the CLI can test offline, and the CLI names a bad --input', async () => {
    const tested = await forge(report.home, 'skill', 'test', 'latest-release-notes', '--json');
    expect(tested.code).toBe(0);
    expect(JSON.parse(tested.stdout)).toMatchObject({ skill: 'latest-release-notes', passed: true, problems: [] });

    const bad = await forge(report.home, 'skill', 'run', 'latest-release-notes', '--input', 'colour=red', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({
      error: { name: 'SkillInputError', message: 'Input "colour": is not an input of skill "latest-release-notes".', hint: expect.stringContaining('topic (string, required') },
    });
  });
});
