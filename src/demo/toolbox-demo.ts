import { ForgeError, type EventOf, type ForgeEvent, type TokenUsage } from '../core/index.js';
import { cassetteSchema, createCassettePlayer } from '../llm/index.js';
import { createRuntime, runTask, type Environment } from '../compose/index.js';
import recordedSession from './toolbox-demo-cassette.json' with { type: 'json' };
import { startFixtureWorld } from './fixture-world-server.js';
import { demoConfig } from './demo-environment.js';

/** The two topics of the toolbox demo: the first run has to build its tool, the second finds it built. */
export const toolboxDemoTopics = ['lumen', 'tessera'] as const;

/** The task each toolbox-demo run is given; the recording and the playback must ask the same. */
export function toolboxDemoTask(topic: string, url: string): string {
  return `What is the latest ${topic} release, according to its release notes page? ${url}`;
}

/** One run of the toolbox demo, as its comparison table shows it. */
export interface ToolboxDemoRow {
  readonly topic: string;
  readonly run_id: string;
  readonly status: string;
  readonly halt_reason: string | null;
  readonly answer: string | null;
  readonly llm_calls: number;
  readonly tokens: TokenUsage;
  readonly duration_ms: number;
  /** Tools written during the run, and how each ended (`promoted` or `failed`). */
  readonly syntheses: Readonly<Record<string, string>>;
  /** Drafts the verification gate turned back during the run (a failing test, or a test a stub passed). */
  readonly verification_failures: readonly string[];
  /** Calls of the synthesized tool `release_version`. */
  readonly tool_uses: number;
}

export interface ToolboxDemoReport {
  readonly home: string;
  readonly rows: readonly ToolboxDemoRow[];
}

/** A demo run that did not complete: the story cannot be told, so the demo stops and says why. */
function demoRunFailure(topic: string, result: Awaited<ReturnType<typeof runTask>>): ForgeError {
  const cause = result.error;
  const stale = cause !== null && /cassette/i.test(`${cause.name} ${cause.message}`);
  return new ForgeError({
    name: 'DemoRunError',
    message: `The ${topic} run of the toolbox demo ended ${result.status}: ${cause === null ? 'no error was recorded' : `${cause.name}: ${cause.message}`} (log: ${result.log_file}).`,
    hint: stale
      ? 'The bundled scripted session no longer matches what Forge asks the models (a prompt, a tool or a tool result changed). Re-record it: npx tsx scripts/record-toolbox-demo.ts'
      : (cause?.hint ?? 'Run it again with --trace to see every event.'),
  });
}

/** The first reason a verification output gives (an assertion when there is one), without its header. */
function firstReason(output: string): string {
  const reasons = output.split('\n').slice(1).map((line) => line.trim()).filter((line) => line !== '');
  return reasons.find((line) => line.startsWith('assert.')) ?? reasons[0] ?? output;
}

function rowOf(topic: string, result: Awaited<ReturnType<typeof runTask>>, events: readonly ForgeEvent[]): ToolboxDemoRow {
  const own = events.filter((event) => event.run_id === result.run_id);
  const ofType = <K extends ForgeEvent['type']>(type: K) => own.filter((event): event is EventOf<K> => event.type === type);
  return {
    topic,
    run_id: result.run_id,
    status: result.status,
    halt_reason: result.halt_reason,
    answer: result.answer,
    llm_calls: result.llm_calls,
    tokens: result.tokens,
    duration_ms: result.duration_ms,
    syntheses: Object.fromEntries(ofType('synthesis-end').map((event) => [event.tool, event.status])),
    verification_failures: ofType('verification-failed').map((event) => `${event.tool}, draft ${event.revision + 1}: ${firstReason(event.output)}`),
    tool_uses: ofType('tool-result').filter((event) => event.tool === 'release_version').length,
  };
}

/**
 * The self-extending toolbox, offline: a convergence run that has no tool to read a release's version
 * asks for one; the author writes it, a separate tester writes an adversarial test from the contract,
 * the sandbox catches the first draft's bug (it drops the patch number), the revision passes, the test
 * fails against every stub, and the tool is promoted and used. A second run on another project finds
 * the tool in the toolbox and uses it without any synthesis. The model side is a
 * scripted session played back from a cassette (scripts/record-toolbox-demo.ts); the fixture web, the
 * sandbox, the verification and the toolbox are real. Data lives in `<FORGE_HOME>/demo-toolbox`.
 */
export async function runToolboxDemo(
  env: Environment,
  options: { onEvent?: (event: ForgeEvent) => void; /** The session to play; the bundled recording by default. */ session?: unknown } = {},
): Promise<ToolboxDemoReport> {
  const world = await startFixtureWorld();
  const { home, config } = demoConfig(env, world, 'demo-toolbox');
  let runtime;
  try {
    runtime = await createRuntime({ config });
    const events: ForgeEvent[] = [];
    runtime.bus.subscribe((event) => {
      events.push(event);
      options.onEvent?.(event);
    });
    // One player for both runs: the session continues from the first run into the second.
    const player = createCassettePlayer(cassetteSchema.parse(options.session ?? recordedSession), { port: `:${world.port}` });
    const model = { slug: 'cassette:toolbox-demo-session', provider: 'cassette' as const, model: player };
    const rows: ToolboxDemoRow[] = [];
    for (const [index, topic] of toolboxDemoTopics.entries()) {
      const result = await runTask(runtime, { task: toolboxDemoTask(topic, world.officialUrl(topic)), model, converge: true, toolbox: index === 0 ? 'fresh' : 'keep' });
      if (result.status !== 'completed') throw demoRunFailure(topic, result);
      rows.push(rowOf(topic, result, events));
    }
    return { home, rows };
  } finally {
    await runtime?.close();
    await world.close();
  }
}
