import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { openRuntime, runSkill, runTask, type ForgeRuntime, type RunSkillOptions, type RunSkillResult } from '../../src/compose/index.js';
import type { SkillDocument } from '../../src/skills/index.js';
import { allowEveryCall } from '../../bench/taubench/harness/allow-every-call.js';
import { classifyReplay, type ReplayVerdict } from '../../bench/taubench/harness/classify-replay.js';
import { groundTruthRun, isRetailWrite, type GroundTruthRun } from '../../bench/taubench/harness/ground-truth.js';
import { ScriptedRetailAgent, estimatedUsage, requestText } from '../../bench/taubench/harness/scripted-agent.js';
import { groundTruthRescueAnswer, oracleInputs, skillStepActions } from '../../bench/taubench/harness/skill-ground-truth.js';
import { loadRetailTasks, startRetailMcpServer, type RetailMcpServer, type RetailTask } from '../../bench/taubench/index.js';

/** A recorded skill with the ground-truth action each of its steps came from. */
export interface RecordedRetailSkill {
  readonly skill: SkillDocument;
  readonly stepActions: readonly number[];
  readonly recordedTask: RetailTask;
}

/** What one replay did to the database, judged like the benchmark judges it. */
export interface RetailReplay {
  readonly result: RunSkillResult;
  readonly truth: GroundTruthRun;
  readonly verdict: ReplayVerdict;
  /** Every call the replay made to the retail server, in order. */
  readonly calls: RetailMcpServer['calls'];
  /** The successful writes among them. */
  readonly writes: { tool: string; arguments: unknown }[];
}

/** How a replay's rescue answers: like a model that knows the ground truth, always "none", or a function of the prompt. */
export type RescueScript = 'ground-truth' | 'none' | ((prompt: string) => string);

/**
 * The τ-bench retail world for skill tests: the re-implemented tools as a real MCP server on loopback,
 * added to a Forge runtime as `retail` (its read-only annotations trusted), aimock serving a scripted
 * agent that plays a task's ground-truth actions, and a rescue whose answers the test sets. Every
 * rescue prompt is kept, so tests can read what a rescue was shown.
 */
export class RetailSkillsWorld {
  readonly tasks = new Map(loadRetailTasks().map((task) => [task.index, task]));
  readonly rescuePrompts: string[] = [];
  private readonly agent = new ScriptedRetailAgent();
  private rescue: { script: RescueScript; recorded: RecordedRetailSkill; task: RetailTask } | undefined;

  private constructor(
    readonly server: RetailMcpServer,
    readonly mock: LLMock,
    readonly runtime: ForgeRuntime,
    private readonly home: string,
  ) {}

  static async start(): Promise<RetailSkillsWorld> {
    const server = await startRetailMcpServer();
    const mock = new LLMock({ port: 0, host: '127.0.0.1' });
    const home = await mkdtemp(path.join(tmpdir(), 'forge-retail-skills-'));
    // The handlers answer for the world, which exists once the runtime it needs has opened.
    const started: { world?: RetailSkillsWorld } = {};
    mock.on({ predicate: (request) => requestText(request, 'system').startsWith('You pick') }, (request) => ({ content: started.world!.rescueAnswer(requestText(request, 'user')), usage: estimatedUsage(request, 2) }));
    mock.on({ predicate: (request) => (request.tools?.length ?? 0) > 0 }, (request) => started.world!.agent.respond(request));
    await mock.start();
    const opened = await openRuntime({ FORGE_HOME: home, FORGE_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_ALLOW_HOSTS: new URL(server.url).host }, home);
    // The runtime's own services (its run front door) read the policy from the runtime itself: set it there, not on a copy.
    const runtime = Object.assign(opened, { policy: allowEveryCall });
    await runtime.mcp.add({ name: 'retail', url: server.url, transport: 'streamable-http', trustAnnotations: true });
    started.world = new RetailSkillsWorld(server, mock, runtime, home);
    return started.world;
  }

  task(index: number): RetailTask {
    const task = this.tasks.get(index);
    if (task === undefined) throw new Error(`no task ${index}`);
    return task;
  }

  private rescueAnswer(prompt: string): string {
    this.rescuePrompts.push(prompt);
    const rescue = this.rescue;
    if (rescue === undefined || rescue.script === 'none') return 'none';
    if (rescue.script === 'ground-truth') return groundTruthRescueAnswer(prompt, rescue.recorded.skill, rescue.recorded.stepActions, rescue.task);
    return rescue.script(prompt);
  }

  /** Records a task by playing its ground-truth actions through a real agent run, and saves the run as a skill. */
  async record(task: RetailTask, options: { name: string; constants?: readonly string[] }): Promise<RecordedRetailSkill> {
    this.server.reset();
    this.agent.current = task;
    const run = await runTask(this.runtime, { task: task.instruction, maxRetries: 0, maxIterations: task.actions.length + 2 });
    this.agent.current = undefined;
    if (run.status !== 'completed') throw new Error(`recording task ${task.index} ended ${run.status}: ${run.error?.message}`);
    const { document } = await this.runtime.skills.saveFromRun(run.run_id, { name: options.name, ...(options.constants === undefined ? {} : { constants: options.constants }) });
    return { skill: document, stepActions: skillStepActions(document, task), recordedTask: task };
  }

  /** The inputs a perfect reader of `task` gives the skill. */
  oracleInputs(recorded: RecordedRetailSkill, task: RetailTask): Record<string, unknown> {
    return oracleInputs(recorded.skill, recorded.stepActions, task, groundTruthRun(task));
  }

  /** Replays a skill for `task` on a fresh database (`before` may change it first) and judges the database it leaves. */
  async replay(recorded: RecordedRetailSkill, task: RetailTask, options: { inputs?: Record<string, unknown>; rescue?: RescueScript; run?: Partial<RunSkillOptions>; runtime?: ForgeRuntime; before?: () => void } = {}): Promise<RetailReplay> {
    this.server.reset();
    options.before?.();
    const truth = groundTruthRun(task);
    const before = this.server.calls.length;
    this.rescue = { script: options.rescue ?? 'ground-truth', recorded, task };
    try {
      const result = await runSkill(options.runtime ?? this.runtime, { skill: recorded.skill.name, inputs: options.inputs ?? this.oracleInputs(recorded, task), request: task.instruction, ...options.run });
      const calls = this.server.calls.slice(before);
      const writes = calls.filter((call) => isRetailWrite(call.tool) && !call.isError).map((call) => ({ tool: call.tool, arguments: call.arguments }));
      return { result, truth, calls, writes, verdict: classifyReplay({ hash: this.server.hash(), status: result.status, writes }, truth).verdict };
    } finally {
      this.rescue = undefined;
    }
  }

  /** A second runtime on the same data with no model configured at all (no rescue can be asked). */
  async runtimeWithoutModel(): Promise<ForgeRuntime> {
    return Object.assign(await openRuntime({ FORGE_HOME: this.home, FORGE_ALLOW_HOSTS: new URL(this.server.url).host }, this.home), { policy: allowEveryCall });
  }

  async close(): Promise<void> {
    await this.runtime.close();
    await this.mock.stop();
    await this.server.close();
    await rm(this.home, { recursive: true, force: true });
  }
}
