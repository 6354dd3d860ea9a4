import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunLog } from '../src/runs/run-log/index.js';
import { runCli } from './support/built-cli.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

describe('the forge command', () => {
  let world: EngineWorld;

  beforeAll(async () => {
    world = await startEngineWorld();
    const { mock, web } = world;
    mock.on({ userMessage: 'cli search task', hasToolResult: false }, { toolCalls: [{ id: 'cli_search', name: 'web_search', arguments: { query: 'forge caching' } }], usage: { prompt_tokens: 50, completion_tokens: 10 } });
    mock.on({ toolCallId: 'cli_search' }, { toolCalls: [{ id: 'cli_read', name: 'read_url', arguments: { url: web.pages.article } }], usage: { prompt_tokens: 300, completion_tokens: 12 } });
    mock.on({ toolCallId: 'cli_read' }, { content: 'Cached by tool name and arguments.', usage: { prompt_tokens: 700, completion_tokens: 9 } });
    mock.addFixture({ match: { userMessage: 'slow task' }, response: { content: 'too late' }, latency: 8_000 });
    mock.on({ userMessage: 'cli tool list task', hasToolResult: false }, { toolCalls: [{ id: 'cli_listed', name: 'read_url', arguments: { url: web.pages.article } }, { id: 'cli_unlisted', name: 'web_search', arguments: { query: 'x' } }], usage: { prompt_tokens: 40, completion_tokens: 8 } });
    mock.on({ userMessage: 'cli tool list task', hasToolResult: true }, { content: 'Read it.', usage: { prompt_tokens: 400, completion_tokens: 3 } });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('ends quietly when its reader stops early (forge --help | head -1)', async () => {
    const { spawn } = await import('node:child_process');
    const { FORGE_BIN } = await import('./support/built-cli.js');
    const child = spawn(process.execPath, [FORGE_BIN, '--help'], { env: { PATH: process.env['PATH'] ?? '', HOME: world.home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The reader takes nothing and goes away: every write after that meets a closed pipe.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });

  it('explains how to configure a model, in one screen and without a stack trace, when none is set', async () => {
    const result = await runCli(['run', 'hello'], { FORGE_HOME: world.home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('OPENAI_API_KEY');
    expect(result.stderr).toContain('ollama');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.split('\n').length).toBeLessThan(30);
  });

  it('run --json prints the documented fields, and stats recomputes the same totals from the run log', async () => {
    const run = await runCli(['run', '--json', '--model', 'openai:gpt-4.1-mini', 'cli search task'], world.env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    for (const field of ['run_id', 'status', 'halt_reason', 'answer', 'llm_calls', 'tokens', 'cost_usd', 'steps']) expect(result).toHaveProperty(field);
    expect(result).toMatchObject({ status: 'completed', halt_reason: 'final_answer', llm_calls: 3, tokens: { input: 1050, output: 31 }, answer: 'Cached by tool name and arguments.' });
    expect((result['steps'] as Array<{ tool: string }>).map((step) => step.tool)).toEqual(['web_search', 'read_url']);

    const stats = await runCli(['stats', '--json', String(result['log_file'])], world.env);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ run_id: result['run_id'], llm_calls: 3, tokens: { input: 1050, output: 31 }, tool_calls: 2, status: 'completed' });

    const all = await runCli(['stats', '--all', '--json'], world.env);
    const aggregate = JSON.parse(all.stdout) as { runs: number; halts_by_reason: Record<string, number>; llm_calls: number };
    expect(aggregate.runs).toBeGreaterThanOrEqual(1);
    expect(aggregate.halts_by_reason['final_answer']).toBeGreaterThanOrEqual(1);
    expect(aggregate.llm_calls).toBeGreaterThanOrEqual(3);
  });

  it('run without --json shows each tool call as it happens and the answer on stdout', async () => {
    const run = await runCli(['run', '--no-tui', '--model', 'openai:gpt-4.1-mini', 'cli search task'], world.env);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('Cached by tool name and arguments.');
    expect(run.stderr).toMatch(/tool-call-start\s+web_search/);
    expect(run.stderr).toMatch(/tool-call-start\s+read_url/);
  });

  it('Ctrl-C stops a run cleanly and records why', async () => {
    const run = await runCli(['run', '--no-tui', '--model', 'openai:gpt-4.1-mini', 'slow task'], world.env, {
      onSpawn: (child) => {
        child.stderr?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('model-call-start')) child.kill('SIGINT');
        });
      },
    });
    expect(run.code).toBe(130);
    const logFile = /log (\S+\.jsonl)/.exec(run.stderr)?.[1];
    expect(logFile).toBeDefined();
    const { events } = await readRunLog(logFile!);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'cancelled', halt_reason: 'cancelled', error: { message: expect.stringContaining('Ctrl-C') } });
  });

  it('tools list and show describe the registry', async () => {
    const list = await runCli(['tools', 'list', '--json'], world.env);
    const names = (JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['web_search', 'read_url', 'http_request']));
    const show = await runCli(['tools', 'show', 'read_url', '--json'], world.env);
    expect(JSON.parse(show.stdout)).toMatchObject({ name: 'read_url', input_schema: { properties: { url: { type: 'string' } }, required: ['url'] } });
  });

  it('tools call goes through the guard: loopback is refused unless allowed', async () => {
    const target = `http://127.0.0.1:${world.search.port}/search?q=x&format=json`;
    const blockedBefore = world.search.requests.length;
    const refused = await runCli(['tools', 'call', 'http_request', '--json', '--input', JSON.stringify({ method: 'GET', url: target })], { FORGE_HOME: world.home });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { name: 'NetworkBlockedError' } });
    expect(world.search.requests.length).toBe(blockedBefore);

    const allowed = await runCli(['tools', 'call', 'http_request', '--json', '--input', JSON.stringify({ method: 'GET', url: target })], { FORGE_HOME: world.home, FORGE_ALLOW_HOSTS: `127.0.0.1:${world.search.port}` });
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ ok: true, tool: 'http_request' });
    expect(world.search.requests.length).toBe(blockedBefore + 1);
  });

  it('run --tools offers the model only the tools named, refuses the others, and names unknown ones before any model call', async () => {
    const run = await runCli(['run', '--json', '--tools', 'read_url', '--model', 'openai:gpt-4.1-mini', 'cli tool list task'], world.env);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { steps: Array<{ tool: string; ok: boolean; output: string }> };
    expect(result.steps.map((step) => [step.tool, step.ok])).toEqual([
      ['read_url', true],
      ['web_search', false],
    ]);
    expect(result.steps[1]!.output).toContain('No tool named "web_search". Available tools: read_url.');
    const requests = requestsMentioning(world.mock, 'cli tool list task');
    expect(requests).toHaveLength(2);
    for (const { body } of requests) expect((body as { tools: Array<{ function: { name: string } }> }).tools.map((tool) => tool.function.name)).toEqual(['read_url']);

    const typo = await runCli(['run', '--json', '--tools', 'read_url, web_serch', '--model', 'openai:gpt-4.1-mini', 'cli tool typo task'], world.env);
    expect(typo.code).toBe(2);
    expect(JSON.parse(typo.stdout)).toMatchObject({ error: { name: 'UnknownToolsError', message: 'No tool named "web_serch". Available tools: web_search, read_url, http_request.' } });
    expect(requestsMentioning(world.mock, 'cli tool typo task')).toEqual([]);

    const help = await runCli(['run', '--help'], world.env);
    expect(help.stdout).toMatch(/--tools <names>\s+only these tools, by exact name/);
  });

  it('bad input gets a clear error naming what was wrong', async () => {
    const badJson = await runCli(['tools', 'call', 'read_url', '--input', '{nope'], world.env);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('--input');
    const badField = await runCli(['tools', 'call', 'read_url', '--json', '--input', '{"url": 5}'], world.env);
    expect(JSON.parse(badField.stdout)).toMatchObject({ ok: false, error: { name: 'ToolInputError', message: expect.stringContaining('url') } });
    const badModel = await runCli(['run', '--model', 'gpt-4', 'x'], world.env);
    expect(badModel.code).toBe(2);
    expect(badModel.stderr).toContain('provider:model');
    const badIterations = await runCli(['run', '--max-iterations', 'many', 'x'], world.env);
    expect(badIterations.code).toBe(2);
    expect(badIterations.stderr).toContain('--max-iterations');
  });
});
