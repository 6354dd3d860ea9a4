import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolboxDemo, type ToolboxDemoReport } from '../src/demo/index.js';
import { runCli } from './support/built-cli.js';

describe('forge demo --toolbox: synthesis, the gate and reuse offline, from a scripted model session', () => {
  let home: string;
  let report: ToolboxDemoReport;

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-toolbox-demo-'));
    // Model settings for servers that do not exist: the demo must use none of them.
    report = await runToolboxDemo({ FORGE_HOME: home, OPENAI_API_KEY: 'sk-unused', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', FORGE_MODEL: 'openai:gpt-4.1-mini', FORGE_TEST_MODEL: 'openai:gpt-4.1' });
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('builds the tool in the first run (its buggy draft caught by the real sandbox) and reuses it in the second with no synthesis', () => {
    expect(report.rows.map((row) => [row.topic, row.status, row.halt_reason, row.answer, row.syntheses, row.tool_uses, row.llm_calls])).toEqual([
      ['lumen', 'completed', 'final_answer', 'The latest lumen release is 4.2.0.', { release_version: 'promoted' }, 1, 6],
      ['tessera', 'completed', 'final_answer', 'The latest tessera release is 2.9.1.', {}, 1, 2],
    ]);
    expect(report.rows[0]!.verification_failures).toHaveLength(1);
    expect(report.rows[0]!.verification_failures[0]).toMatch(/^release_version, draft 1: assert\.equal failed: reads the full version from .* \(got "4\.2", expected "4\.2\.0"\)$/);
    expect(report.rows[1]!.verification_failures).toEqual([]);
    expect(report.home).toBe(path.join(home, 'demo-toolbox'));
  });

  it('leaves a toolbox and run logs the CLI reads, and prints the story from the built binary', async () => {
    const env = { FORGE_HOME: report.home };
    const listed = JSON.parse((await runCli(['tools', 'list', '--json'], env)).stdout) as { toolbox: unknown[] };
    expect(listed.toolbox).toEqual([expect.objectContaining({ name: 'release_version', status: 'promoted', origin: 'synthesized', revisions: 1, uses: 2, capabilities: ['fetch'] })]);
    const stats = JSON.parse((await runCli(['stats', '--all', '--json'], env)).stdout) as Record<string, unknown>;
    expect(stats).toMatchObject({ runs: 2, synthesis: { drafted: 1, promoted: 1, caught: 1, catch_rate: 1, tool_uses: 2, reuse_ratio: 2 } });

    const demo = await runCli(['demo', '--toolbox'], { FORGE_HOME: home });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('SCRIPTED MODEL SESSION');
    expect(demo.stdout).toMatch(/first \(builds the tool\)\s+lumen\s+release_version \(promoted\)\s+1\s+1\s+6/);
    expect(demo.stdout).toMatch(/second \(--keep\)\s+tessera\s+none\s+0\s+1\s+2/);
  });

  it('stops with a clear error, naming the script to re-record, when the bundled session no longer matches', async () => {
    const session = JSON.parse(await readFile(new URL('../src/demo/toolbox-demo-cassette.json', import.meta.url), 'utf8')) as { turns: { request: { messages: { text: string }[] } }[] };
    session.turns[0]!.request.messages[0]!.text = session.turns[0]!.request.messages[0]!.text.replace('What is', 'What was');
    const failed = runToolboxDemo({ FORGE_HOME: home }, { session });
    await expect(failed).rejects.toMatchObject({ name: 'DemoRunError', hint: expect.stringContaining('npx tsx scripts/record-toolbox-demo.ts') });
    await expect(failed).rejects.toThrow(/The lumen run of the toolbox demo ended failed: CassetteMismatchError/);
  });
});
