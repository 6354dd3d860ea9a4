import type { ForgeEvent, TokenUsage } from '../core/index.js';
import { cassetteSchema, createCassettePlayer } from '../llm/index.js';
import { openRuntime, runSkill, runTask, type Environment } from '../runtime/index.js';
import type { ResolutionStrategy } from '../skills/index.js';
import recordedSession from './demo-cassette.json' with { type: 'json' };
import { WORLD_TOPICS, worldTask } from './fixture-world.js';
import { startFixtureWorld } from './fixture-world-server.js';
import { demoEnvironment } from './demo-environment.js';

/** One row of the demo's comparison: the full agent run or one replay. */
export interface DemoRow {
  readonly kind: 'agent (recorded model session)' | 'skill replay';
  readonly topic: string;
  readonly run_id: string;
  readonly status: string;
  readonly llm_calls: number;
  readonly tokens: TokenUsage;
  readonly duration_ms: number;
  /** The page the run read, and how the replay chose it. */
  readonly url: string | null;
  readonly strategy: ResolutionStrategy | null;
}

export interface DemoReport {
  readonly skill: string;
  readonly home: string;
  readonly rows: readonly DemoRow[];
}

/**
 * The whole skill lifecycle on the bundled fixture world, offline: a full agent run on one topic whose
 * model answers come from a recorded session (a cassette; the tools run live against the world on
 * loopback), saved as a skill, then replayed on three other topics. It uses its own data folder
 * (`<FORGE_HOME>/demo`) and strips model keys from its environment, so it needs no key, reaches no
 * network and cannot spend money. `onEvent` sees every event of every run, for a live view.
 */
export async function runLifecycleDemo(env: Environment, options: { onEvent?: (event: ForgeEvent) => void; replayTopics?: readonly string[] } = {}): Promise<DemoReport> {
  const world = await startFixtureWorld();
  const { home, env: demoEnv } = demoEnvironment(env, 'demo', world);
  let runtime;
  try {
    runtime = await openRuntime(demoEnv);
    if (options.onEvent !== undefined) runtime.bus.subscribe(options.onEvent);
    const recordedTopic = WORLD_TOPICS[0]!.name;
    const model = createCassettePlayer(cassetteSchema.parse(recordedSession), { port: `:${world.port}` });
    const agent = await runTask(runtime, { task: worldTask(recordedTopic), model: { slug: 'cassette:demo-session', provider: 'cassette', model } });
    if (agent.status !== 'completed') throw new Error(`the recorded agent run did not complete: ${agent.error?.message ?? agent.status}`);
    const { document: skill } = await runtime.skills.saveFromRun(agent.run_id, { name: 'latest-release-notes' });
    const rows: DemoRow[] = [
      {
        kind: 'agent (recorded model session)',
        topic: recordedTopic,
        run_id: agent.run_id,
        status: agent.status,
        llm_calls: agent.llm_calls,
        tokens: agent.tokens,
        duration_ms: agent.duration_ms,
        url: String((agent.steps.find((step) => step.tool === 'read_url')?.input as { url?: string } | undefined)?.url ?? '') || null,
        strategy: null,
      },
    ];
    for (const topic of options.replayTopics ?? WORLD_TOPICS.slice(1, 4).map((entry) => entry.name)) {
      const replay = await runSkill(runtime, { skill: skill.name, inputs: { topic } });
      const chosen = replay.steps[1]?.resolutions[0];
      rows.push({
        kind: 'skill replay',
        topic,
        run_id: replay.run_id,
        status: replay.status,
        llm_calls: replay.llm_calls,
        tokens: replay.tokens,
        duration_ms: replay.duration_ms,
        url: typeof chosen?.value === 'string' ? chosen.value : null,
        strategy: chosen?.strategy ?? null,
      });
    }
    return { skill: skill.name, home, rows };
  } finally {
    await runtime?.close();
    await world.close();
  }
}
