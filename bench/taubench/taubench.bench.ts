/**
 * Skills on a real domain: τ-bench retail (sierra-research/tau-bench, MIT), its tools re-implemented in
 * bench/taubench and served as an MCP server on loopback. The 115 test tasks are grouped by their
 * ground-truth tool sequence; for each group of two or more, the first task is recorded (a scripted
 * model plays its ground-truth actions through Forge's real loop, MCP client and recorder), saved as a
 * skill, and replayed on every other task of the group:
 *   (a) with that task's inputs taken from its ground truth and a rescue model that answers with the
 *       ground-truth candidate when it is among the candidates (the engine's upper bound), and
 *   (b) end to end through `forge run --skills "<the task's instruction>"`: the skill chosen from the
 *       text and its inputs read from it; with no model configured (CI) only deterministic extraction,
 *       so whatever it cannot read must refuse. TAUBENCH_MODEL=<slug> (with the vendor's key) adds a
 *       real model for extraction and rescue in this mode and reports its figures.
 * Each replay is scored by the database it leaves (τ-bench's data hash against the hash after the
 * task's ground-truth actions on a fresh copy). Prints per mode: correct, wrong writes, safe refusals,
 * incomplete, model calls per replay, tokens against the full agent.
 * Targets (issue 10): 0 wrong writes in both modes; mode (a) ≥ 80% correct with ≤ 2 model calls a replay.
 *
 *   npm run bench:taubench            (add --verbose for one line per replay)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { openRuntime, runSkill, runTask, runTaskWithSkills, type ForgeRuntime } from '../../src/compose/index.js';
import type { SkillDocument } from '../../src/skills/index.js';
import { groupTasksBySequence, loadRetailTasks, startRetailMcpServer, type RetailTask } from './index.js';
import { allowEveryCall } from './harness/allow-every-call.js';
import { classifyReplay, type ReplayVerdict } from './harness/classify-replay.js';
import { groundTruthRun, isRetailWrite } from './harness/ground-truth.js';
import { ScriptedRetailAgent, estimatedUsage, requestText } from './harness/scripted-agent.js';
import { groundTruthRescueAnswer, oracleInputs, skillStepActions } from './harness/skill-ground-truth.js';

const verbose = process.argv.includes('--verbose');

function withPolicy(runtime: ForgeRuntime): ForgeRuntime {
  // The run front door reads the policy from the runtime itself: set it there, not on a copy.
  return Object.assign(runtime, { policy: allowEveryCall });
}
const realModel = process.env['TAUBENCH_MODEL']?.trim() || undefined;

interface RecordedSkill {
  readonly group: number;
  readonly tasks: readonly RetailTask[];
  readonly skill: SkillDocument;
  readonly stepActions: readonly number[];
  readonly agentCalls: number;
}

interface ReplayRow {
  readonly group: number;
  readonly task: number;
  readonly verdict: ReplayVerdict;
  readonly status: string;
  readonly llmCalls: number;
  readonly tokens: number;
  readonly matched: string | null;
  readonly note: string;
}

const server = await startRetailMcpServer();
const agent = new ScriptedRetailAgent();
let rescueContext: { skill: SkillDocument; stepActions: readonly number[]; task: RetailTask } | undefined;
const mock = new LLMock({ port: 0, host: '127.0.0.1' });
mock.on({ predicate: (request) => requestText(request, 'system').startsWith('You pick') }, (request) => ({
  content: rescueContext === undefined ? 'none' : groundTruthRescueAnswer(requestText(request, 'user'), rescueContext.skill, rescueContext.stepActions, rescueContext.task),
  usage: estimatedUsage(request, 2),
}));
mock.on({ predicate: (request) => (request.tools?.length ?? 0) > 0 }, (request) => agent.respond(request));
await mock.start();
const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-taubench-'));
const allowHosts = new URL(server.url).host;

let runtime: ForgeRuntime | undefined;
try {
  runtime = withPolicy(await openRuntime({ FORGE_HOME: home, FORGE_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_ALLOW_HOSTS: allowHosts }, home));
  // Our own server: its read-only annotations are true, so they are trusted.
  await runtime.mcp.add({ name: 'retail', url: server.url, transport: 'streamable-http', trustAnnotations: true });

  const groups = groupTasksBySequence(loadRetailTasks()).filter((group) => group.tasks.length >= 2 && group.sequence.length > 0);
  const recorded: RecordedSkill[] = [];
  for (const [index, group] of groups.entries()) {
    const first = group.tasks[0]!;
    server.reset();
    agent.current = first;
    const run = await runTask(runtime, { task: first.instruction, maxRetries: 0, maxIterations: first.actions.length + 2 });
    if (run.status !== 'completed' || server.hash() !== groundTruthRun(first).hash) throw new Error(`recording task ${first.index} did not reproduce its ground truth (${run.status})`);
    const { document } = await runtime.skills.saveFromRun(run.run_id, { name: `retail-group-${index + 1}` });
    recorded.push({ group: index + 1, tasks: group.tasks, skill: document, stepActions: skillStepActions(document, first), agentCalls: run.llm_calls });
  }
  agent.current = undefined;

  const modeA: ReplayRow[] = [];
  for (const entry of recorded) {
    for (const task of entry.tasks.slice(1)) {
      server.reset();
      const truth = groundTruthRun(task);
      const before = server.calls.length;
      rescueContext = { skill: entry.skill, stepActions: entry.stepActions, task };
      const inputs = oracleInputs(entry.skill, entry.stepActions, task, truth);
      const replay = await runSkill(runtime, { skill: entry.skill.name, inputs, request: task.instruction }).catch((error: unknown) => error as Error);
      const writes = server.calls.slice(before).filter((call) => isRetailWrite(call.tool) && !call.isError);
      const status = replay instanceof Error ? 'refused' : replay.status;
      const { verdict, wrongWrites } = classifyReplay({ hash: server.hash(), status, writes }, truth);
      const note = replay instanceof Error ? `inputs: ${replay.message}` : wrongWrites.length > 0 ? `WRONG: ${JSON.stringify(wrongWrites)}` : (replay.error?.message ?? '');
      modeA.push({ group: entry.group, task: task.index, verdict, status, llmCalls: replay instanceof Error ? 0 : replay.llm_calls, tokens: replay instanceof Error ? 0 : replay.tokens.input + replay.tokens.output, matched: entry.skill.name, note });
    }
  }
  rescueContext = undefined;
  await runtime.close();

  // Mode (b): a runtime with no model at all, unless TAUBENCH_MODEL names a real one.
  runtime = withPolicy(await openRuntime({ ...(realModel === undefined ? {} : { ...process.env, FORGE_MODEL: realModel }), FORGE_HOME: home, FORGE_ALLOW_HOSTS: allowHosts }, home));
  const modeB: ReplayRow[] = [];
  for (const entry of recorded) {
    for (const task of entry.tasks.slice(1)) {
      server.reset();
      const truth = groundTruthRun(task);
      const before = server.calls.length;
      const outcome = await runTaskWithSkills(runtime, { task: task.instruction, maxRetries: 0 }).catch((error: unknown) => error as Error);
      const writes = server.calls.slice(before).filter((call) => isRetailWrite(call.tool) && !call.isError);
      const matched = outcome instanceof Error ? null : outcome.replayed_skill;
      const status = outcome instanceof Error ? 'refused' : outcome.status;
      const { verdict, wrongWrites } = classifyReplay({ hash: server.hash(), status, writes }, truth);
      const note = outcome instanceof Error ? `no skill fits and no model for the full agent` : wrongWrites.length > 0 ? `WRONG: ${JSON.stringify(wrongWrites)}` : (outcome.error?.message ?? '');
      modeB.push({ group: entry.group, task: task.index, verdict, status, llmCalls: outcome instanceof Error ? 0 : outcome.llm_calls, tokens: outcome instanceof Error ? 0 : outcome.tokens.input + outcome.tokens.output, matched, note });
    }
  }

  const agentCalls = new Map(recorded.map((entry) => [entry.group, entry.agentCalls]));
  const report = (label: string, rows: readonly ReplayRow[]) => {
    const count = (verdict: ReplayVerdict) => rows.filter((row) => row.verdict === verdict).length;
    const calls = rows.reduce((sum, row) => sum + row.llmCalls, 0);
    const fullAgentCalls = rows.reduce((sum, row) => sum + agentCalls.get(row.group)!, 0);
    const replayTokens = rows.reduce((sum, row) => sum + row.tokens, 0);
    process.stdout.write(`\n${label}\n`);
    process.stdout.write(`  replays: ${rows.length}   correct: ${count('correct')} (${((100 * count('correct')) / rows.length).toFixed(1)}%)   wrong writes: ${count('wrong-write')}   safe refusals: ${count('safe-refusal')}   incomplete: ${count('incomplete')}\n`);
    process.stdout.write(`  model calls: ${calls} over ${rows.length} replays = ${(calls / rows.length).toFixed(2)} a replay   (full agent: ${fullAgentCalls} = ${(fullAgentCalls / rows.length).toFixed(2)} a run, from the recordings)\n`);
    process.stdout.write(`  replay tokens: ${replayTokens} (estimated at 4 characters a token by the scripted peer)   full agent tokens: n/a (scripted recordings; reported with a real model only)\n`);
    if (verbose) for (const row of rows) process.stdout.write(`    group ${String(row.group).padStart(2)} task ${String(row.task).padStart(3)}  ${row.verdict.padEnd(12)} ${row.status.padEnd(9)} calls ${row.llmCalls}  skill ${row.matched ?? '-'}  ${row.note.slice(0, 160)}\n`);
  };
  process.stdout.write(`τ-bench retail: ${recorded.length} groups of ≥ 2 tasks recorded (one skill each), ${modeA.length} replays\n`);
  report('mode (a): ground-truth inputs, ground-truth rescue (the upper bound)', modeA);
  report(`mode (b): forge run --skills "<instruction>" (${realModel === undefined ? 'no model: deterministic extraction only' : `model ${realModel}`})`, modeB);
  const right = modeB.filter((row, index) => row.matched !== null && row.matched === modeA[index]!.matched).length;
  const wrong = modeB.filter((row, index) => row.matched !== null && row.matched !== modeA[index]!.matched).length;
  const missed = modeB.filter((row) => row.matched === null).length;
  process.stdout.write(`  skill chosen from the text: right ${right}, wrong ${wrong}, none ${missed}   (a wrong match must stay rarer than a missed one)\n`);
  const aCorrect = modeA.filter((row) => row.verdict === 'correct').length / modeA.length;
  const aCalls = modeA.reduce((sum, row) => sum + row.llmCalls, 0) / modeA.length;
  const wrongWrites = [...modeA, ...modeB].filter((row) => row.verdict === 'wrong-write').length;
  process.stdout.write(`\ntargets: wrong writes ${wrongWrites} (target 0) · mode (a) correct ${(100 * aCorrect).toFixed(1)}% (target ≥ 80%) · mode (a) model calls ${aCalls.toFixed(2)} a replay (target ≤ 2) · wrong matches ${wrong} < missed ${missed}\n`);
} finally {
  await runtime?.close();
  await mock.stop();
  await server.close();
  await rm(home, { recursive: true, force: true });
}
