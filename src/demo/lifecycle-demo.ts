import type { ForgeEvent, TokenUsage } from '../core/index.js';
import { cassetteSchema, createCassettePlayer } from '../llm/index.js';
import { createRuntime, runSkill, runTask, type Environment } from '../compose/index.js';
import type { ResolutionStrategy } from '../skills/index.js';
import recordedSession from './demo-cassette.json' with { type: 'json' };
import { WORLD_TOPICS, worldTask } from './fixture-world.js';
import { startFixtureWorld } from './fixture-world-server.js';
import { demoConfig } from './demo-environment.js';

/** The name the demo saves its skill under. */
export const DEMO_SKILL = 'latest-release-notes';

/** One row of the demo's comparison: the full agent run or one replay. */
export interface DemoRow {
  readonly kind: 'agent (recorded model session)' | 'skill replay';
  readonly topic: string;
  readonly run_id: string;
  /** Its run log, for `forge replay`. */
  readonly log_file: string;
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
 * loopback), saved as a skill, then replayed on three other topics. It leaves its runs and the skill in
 * the user's Forge home, a playground for `forge skill|runs|stats|replay` (re-run the skill against
 * `forge demo --serve-world`), and strips model keys and the database URL from its settings, so it needs
 * no key, reaches no network and cannot spend money. `onEvent` sees every event of every run, for a live view.
 */
export async function runLifecycleDemo(env: Environment, options: { onEvent?: (event: ForgeEvent) => void; replayTopics?: readonly string[] } = {}): Promise<DemoReport> {
  const world = await startFixtureWorld();
  const { home, config } = demoConfig(env, world);
  let runtime;
  try {
    runtime = await createRuntime({ config });
    if (options.onEvent !== undefined) runtime.bus.subscribe(options.onEvent);
    const recordedTopic = WORLD_TOPICS[0]!.name;
    const model = createCassettePlayer(cassetteSchema.parse(recordedSession), { port: `:${world.port}` });
    const agent = await runTask(runtime, { task: worldTask(recordedTopic), model: { slug: 'cassette:demo-session', provider: 'cassette', model } });
    if (agent.status !== 'completed') throw new Error(`the recorded agent run did not complete: ${agent.error?.message ?? agent.status}`);
    const { document: skill } = await runtime.skills.saveFromRun(agent.run_id, { name: DEMO_SKILL, force: true });
    const rows: DemoRow[] = [
      {
        kind: 'agent (recorded model session)',
        topic: recordedTopic,
        run_id: agent.run_id,
        log_file: agent.log_file,
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
        log_file: replay.log_file,
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
