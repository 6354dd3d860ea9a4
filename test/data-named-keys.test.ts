import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/built-cli.js';

/**
 * Names that come from data (tool names, which `^[a-zA-Z0-9_-]{1,64}$` allows to be `__proto__` or
 * `constructor`; model slugs) used as object keys must stay plain keys: never the prototype's setter,
 * never an inherited member read back as a count.
 */
describe('names from data used as keys', () => {
  let folder: string;
  let logFile: string;
  const awkwardNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'forge-data-keys-'));
    logFile = path.join(folder, 'run.jsonl');
    let seq = 0;
    const event = (type: string, body: Record<string, unknown>) => JSON.stringify({ ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), run_id: 'run-keys', seq: seq++, type, ...body });
    const lines = [
      event('run-start', { task: 'awkward names', model: 'openai:gpt-4.1-mini', max_iterations: 5, conversation_id: null, tools: awkwardNames }),
      event('model-call', { model: '__proto__', iteration: 1, purpose: 'agent', tokens: { input: 10, output: 2 }, cost_usd: null, latency_ms: 5, input_hash: 'sha256:1', finish_reason: 'tool-calls', tool_calls: awkwardNames.length }),
      ...awkwardNames.map((tool, index) => event('tool-result', { call_id: `call_${index}`, tool, output: 'ok', truncated: false, untrusted: false, duration_ms: 1 })),
      event('verification-failed', { tool: 'constructor', revision: 0, output: 'FAIL' }),
      event('synthesis-end', { tool: 'constructor', status: 'promoted', revisions: 1, llm_calls: 2, tokens: { input: 30, output: 6 }, cost_usd: null, flagged: false, failures: [] }),
      event('synthesis-end', { tool: '__proto__', status: 'failed', revisions: 3, llm_calls: 4, tokens: { input: 40, output: 8 }, cost_usd: null, flagged: true, failures: ['x'] }),
      event('run-end', { status: 'completed', halt_reason: 'final_answer', answer: 'done', error: null, llm_calls: 1, tokens: { input: 10, output: 2 }, cost_usd: null, duration_ms: 10 }),
    ];
    await writeFile(logFile, `${lines.join('\n')}\n`);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('forge stats counts tools, models and syntheses named like Object.prototype members as ordinary names', async () => {
    const result = await runCli(['stats', '--json', logFile], { FORGE_HOME: folder });

    expect(result.code, result.stderr).toBe(0);
    const stats = JSON.parse(result.stdout) as { tools: Record<string, unknown>; per_model: Record<string, { llm_calls: number }>; syntheses: Record<string, { status: string; verification_failures: number }> };
    expect(Object.entries(stats.tools)).toEqual(awkwardNames.map((name) => [name, 1]));
    expect(Object.keys(stats.per_model)).toEqual(['__proto__']);
    expect(stats.per_model['__proto__']?.llm_calls).toBe(1);
    expect(Object.keys(stats.syntheses)).toEqual(['constructor', '__proto__']);
    expect(stats.syntheses['constructor']).toMatchObject({ status: 'promoted', verification_failures: 1 });
    expect(stats.syntheses['__proto__']).toMatchObject({ status: 'failed', verification_failures: 0 });
  });
});

describe('tool names from a toolbox manifest', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'forge-manifest-names-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses a manifest entry whose name is a path, so removing it can never delete outside the toolbox', async () => {
    // A toolbox that came with someone else's project folder: a failed tool whose "name" walks out of FORGE_HOME.
    const home = path.join(folder, 'project', '.forge');
    const victim = path.join(folder, 'project', 'src');
    await mkdir(path.join(home, 'toolbox'), { recursive: true });
    await mkdir(victim, { recursive: true });
    await writeFile(path.join(victim, 'main.ts'), 'precious');
    const entry = {
      name: '../../../src',
      description: 'A tool that failed verification.',
      status: 'failed',
      origin: 'added',
      source: 'export const meta = {};',
      test: 'export default async function test() {}',
      revisions: 3,
      uses: 0,
      capabilities: [],
      capabilities_used: [],
      input_schema: { type: 'object', properties: {} },
      failures: ['the test failed'],
      cost_usd: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    await writeFile(path.join(home, 'toolbox', 'manifest.json'), JSON.stringify({ version: 1, tools: [entry] }));

    const removed = await runCli(['tools', 'remove', entry.name], { FORGE_HOME: home });

    expect(await readFile(path.join(victim, 'main.ts'), 'utf8')).toBe('precious');
    expect((await stat(victim)).isDirectory()).toBe(true);
    expect(removed.code).not.toBe(0);
    expect(removed.stderr).toContain('tools.0.name');
  });
});

describe('the forge process', () => {
  it('has no Object.prototype.__proto__ accessor, so a nested write through a "__proto__" key cannot reach Object.prototype', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'forge-proto-'));
    // Runs in the CLI process once the command has finished: the pollution pattern of finding 1 (obj[a][b] = v, a from data).
    const probe = `process.on('exit', () => { const key = JSON.parse('"__proto__"'); try { ({})[key]['polluted'] = 'yes'; } catch {} process.stderr.write('probe:' + String(({}).polluted) + '\\n'); })`;
    try {
      const result = await runCli(['tools', 'list', '--json'], { FORGE_HOME: home, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(probe)}` });

      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('probe:undefined');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
