import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groundTruthRun, isRetailWrite } from '../bench/taubench/harness/ground-truth.js';
import { ScriptedRetailAgent, estimatedUsage, requestText } from '../bench/taubench/harness/scripted-agent.js';
import { groundTruthRescueAnswer, oracleInputs, skillStepActions } from '../bench/taubench/harness/skill-ground-truth.js';
import { loadRetailTasks, startRetailMcpServer, type RetailMcpServer, type RetailTask } from '../bench/taubench/index.js';
import type { SkillDocument } from '../src/skills/index.js';
import { runCli, type CliResult } from './support/built-cli.js';

function json<T>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
  }
}

/** `--input name=value` pairs; lists as JSON. */
function inputArguments(inputs: Record<string, unknown>): string[] {
  return Object.entries(inputs).flatMap(([name, value]) => ['--input', `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`]);
}

type SavedJson = SkillDocument & { skill_version: number; write_constants: { name: string; value: unknown }[] };

/**
 * The skill commands end to end through the built `forge` binary, on τ-bench retail served over MCP
 * (its writes without the destructive hint here, so the default policy lets them run), with aimock
 * playing the recorded agent and a rescue that knows the ground truth.
 */
describe('forge skill on a real domain, from the command line: save, show, dry run, run, refuse, add a recording, versions, rollback, edit, import', () => {
  const tasks = new Map(loadRetailTasks().map((task) => [task.index, task]));
  const task = (index: number) => tasks.get(index)!;
  const agent = new ScriptedRetailAgent();
  let rescue: { skill: SkillDocument; recorded: RetailTask; task: RetailTask } | undefined;
  let server: RetailMcpServer;
  let mock: LLMock;
  let home: string;
  let env: Record<string, string>;

  const forge = (...args: string[]) => runCli(args, env, { timeoutMs: 60_000 });

  async function record(recorded: RetailTask): Promise<string> {
    server.reset();
    agent.current = recorded;
    const run = json<{ run_id: string; status: string }>(await forge('run', '--json', '--max-iterations', String(recorded.actions.length + 2), recorded.instruction));
    agent.current = undefined;
    expect(run.status).toBe('completed');
    expect(server.hash()).toBe(groundTruthRun(recorded).hash);
    return run.run_id;
  }

  function replayInputs(skill: SkillDocument, recorded: RetailTask, target: RetailTask): string[] {
    rescue = { skill, recorded, task: target };
    return inputArguments(oracleInputs(skill, skillStepActions(skill, recorded), target, groundTruthRun(target)));
  }

  beforeAll(async () => {
    server = await startRetailMcpServer({ destructiveWrites: false });
    mock = new LLMock({ port: 0, host: '127.0.0.1' });
    mock.on({ predicate: (request) => requestText(request, 'system').startsWith('You pick') }, (request) => ({
      content: rescue === undefined ? 'none' : groundTruthRescueAnswer(requestText(request, 'user'), rescue.skill, skillStepActions(rescue.skill, rescue.recorded), rescue.task),
      usage: estimatedUsage(request, 2),
    }));
    mock.on({ predicate: (request) => requestText(request, 'system').startsWith('You read values') }, (request) => ({ content: '{"order_id": "#W8835847"}', usage: estimatedUsage(request, 12) }));
    mock.on({ predicate: (request) => (request.tools?.length ?? 0) > 0 }, (request) => agent.respond(request));
    await mock.start();
    home = await mkdtemp(path.join(tmpdir(), 'forge-skills-cli-'));
    env = { FORGE_HOME: home, FORGE_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_ALLOW_HOSTS: new URL(server.url).host };
    const added = json<{ server: { trust_annotations: boolean; tools: string[] } }>(await forge('mcp', 'add', 'retail', server.url, '--trust-annotations', '--json'));
    expect(added.server).toMatchObject({ trust_annotations: true });
  });

  afterAll(async () => {
    await mock?.stop();
    await server?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it('saves an exchange, dry-runs it for another customer without writing, runs it, and refuses (exit 3) when no choice can be proven', async () => {
    const runId = await record(task(18));
    const saved = json<SavedJson>(await forge('skill', 'save', runId, '--name', 'exchange', '--json'));
    expect(saved).toMatchObject({ name: 'exchange', skill_version: 1, write_constants: [] });

    const shown = await forge('skill', 'show', 'exchange');
    expect(shown.stdout).toContain('exchange@1  (active)');
    expect(shown.stdout).toMatch(/4\. mcp__retail__exchange_delivered_order_items {2}\[writes\]/);
    expect(shown.stdout).toContain('generalised from 1 recording:');

    server.reset();
    const inputs = replayInputs(saved, task(18), task(52));
    const dry = await forge('skill', 'run', 'exchange', '--dry-run', '--json', '--task', task(52).instruction, ...inputs);
    const dryResult = json<{ status: string; dry_run: boolean; answer: string; writes: { tool: string; made: boolean; arguments: Record<string, unknown> }[] }>(dry);
    expect(dry.code).toBe(0);
    expect(dryResult).toMatchObject({ status: 'completed', dry_run: true, writes: [{ tool: 'mcp__retail__exchange_delivered_order_items', made: false, arguments: task(52).actions.at(-1)!.kwargs }] });
    expect(dryResult.answer).toContain('Dry run: this replay would make 1 write');
    expect(server.calls.filter((call) => isRetailWrite(call.tool))).toEqual([]);

    const ran = await forge('skill', 'run', 'exchange', '--json', '--task', task(52).instruction, ...inputs);
    expect(ran.code).toBe(0);
    expect(json<{ writes: { made: boolean; ok: boolean }[] }>(ran).writes).toEqual([expect.objectContaining({ made: true, ok: true })]);
    expect(server.hash()).toBe(groundTruthRun(task(52)).hash);

    server.reset();
    rescue = undefined;
    const refused = await forge('skill', 'run', 'exchange', '--no-tui', '--task', task(52).instruction, ...inputs);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('refused before step 4 (mcp__retail__exchange_delivered_order_items) could write');
    expect(refused.stderr).toMatch(/guided replay · refused · \d+ model calls/);
    expect(server.calls.filter((call) => isRetailWrite(call.tool))).toEqual([]);
  });

  it('adds a second recording of the same template as version 2, tests it against both recordings, and rolls back to version 1 as version 3', async () => {
    const first = await record(task(6));
    json<SavedJson>(await forge('skill', 'save', first, '--name', 'exchange-lamp', '--json'));
    const second = await record(task(7));

    const merged = json<SavedJson>(await forge('skill', 'save', second, '--into', 'exchange-lamp', '--json'));
    expect(merged.skill_version).toBe(2);
    expect(merged.recordings.map((recording) => recording.run_id)).toEqual([first, second]);

    const tested = await forge('skill', 'test', 'exchange-lamp', '--json');
    const report = json<{ passed: boolean; recordings: { run_id: string; passed: boolean; problems: string[] }[] }>(tested);
    expect(report.recordings).toEqual([expect.objectContaining({ run_id: first, passed: true }), expect.objectContaining({ run_id: second, passed: true })]);
    expect(tested.code).toBe(0);

    expect(json<SavedJson>(await forge('skill', 'show', 'exchange-lamp@1', '--json')).recordings).toHaveLength(1);
    const rolledBack = json<SavedJson>(await forge('skill', 'rollback', 'exchange-lamp', '1', '--json'));
    expect(rolledBack).toMatchObject({ skill_version: 3 });
    expect(rolledBack.recordings).toHaveLength(1);
    const versions = json<{ current_version: number; versions: { version: number; note: string; parent_version: number | null }[] }>(await forge('skill', 'versions', 'exchange-lamp', '--json'));
    expect(versions).toEqual({
      skill: 'exchange-lamp',
      current_version: 3,
      versions: [
        expect.objectContaining({ version: 1, note: `saved from run ${first}`, parent_version: null }),
        expect.objectContaining({ version: 2, note: `recording from run ${second} added`, parent_version: 1 }),
        expect.objectContaining({ version: 3, note: 'rolled back to version 1', parent_version: 1 }),
      ],
    });
    expect((await forge('skill', 'show', 'exchange-lamp@9')).stderr).toContain('List its versions with `forge skill versions exchange-lamp`');
  });

  it('pins a write argument with forge skill edit, lists an imported skill\'s write constants, and refuses forge run --skills when the task does not say an input', async () => {
    const runId = await record(task(88));
    const saved = json<SavedJson>(await forge('skill', 'save', runId, '--name', 'cancel', '--json'));
    expect(Object.keys(saved.variables_schema.properties)).toEqual(['order_id', 'reason']);

    const edited = json<SavedJson>(await forge('skill', 'edit', 'cancel', '--constant', 'steps[0].reason', '--json'));
    expect(edited.skill_version).toBe(2);
    expect(Object.keys(edited.variables_schema.properties)).toEqual(['order_id']);
    server.reset();
    const ran = await forge('skill', 'run', 'cancel', '--json', '--input', 'order_id=#W9284598');
    expect(json<{ status: string; writes: { arguments: unknown }[] }>(ran)).toMatchObject({ status: 'completed', writes: [{ arguments: { order_id: '#W9284598', reason: 'ordered by mistake' } }] });

    const unpinned: SkillDocument = {
      ...edited,
      name: 'cancel-recorded-order',
      task_template: 'Cancel the order you recorded.',
      recordings: [{ ...edited.recordings[0]!, task: 'Cancel the order you recorded.' }],
      variables_schema: { ...edited.variables_schema, properties: {}, required: [] },
      variable_origins: {},
      steps: edited.steps.map((step) => ({ ...step, arguments: step.arguments.map((argument) => (argument.path === 'order_id' ? { path: 'order_id', binding: { kind: 'constant' as const, value: '#W8835847', pinned: false } } : argument)) })),
    };
    const file = path.join(home, 'cancel-recorded-order.json');
    await writeFile(file, JSON.stringify(unpinned));
    const imported = await forge('skill', 'import', file);
    expect(imported.stdout).toContain('imported skill cancel-recorded-order@1');
    expect(imported.stdout).toContain('a replay refuses before that write until you pin it: forge skill edit cancel-recorded-order --constant steps[0].order_id');

    server.reset();
    const viaRun = await forge('run', '--skills', '--json', task(88).instruction);
    const result = json<{ status: string; replayed_skill: string; refusal: { reasons: string[] }; llm_calls: number; extraction: { missing: string[] } }>(viaRun);
    expect(viaRun.code).toBe(3);
    expect(result).toMatchObject({ status: 'refused', replayed_skill: 'cancel', extraction: { missing: ['order_id'] }, llm_calls: 1 });
    expect(result.refusal.reasons).toEqual(['the task does not say "order_id"']);
    expect(server.calls).toEqual([]);
  });
});
