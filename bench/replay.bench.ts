/**
 * Full agent vs skill replay over the fixture world: for every topic, the reasoning run (aimock serving
 * the world's agent over the OpenAI wire format, token usage estimated at 4 characters a token from the
 * real requests) against a guided replay of the skill saved from the first topic's run. Prints model
 * calls, tokens and wall time per mode, the share of replays resolved without any model call, and the
 * replay tokens as a share of the agent's. Then the fixed cost of a replay: the wall time of `runSkill`
 * (store row, run log, events, the skill read, resolution, the run's end committed) less the time its
 * tool calls took, over replays that called no model.
 * Targets (skills issue): ≥ 90% of guided replays need no rescue; replay tokens < 5% of the agent's.
 * Target (concurrency issue): the fixed cost below 3 ms a replay (6–16 ms before, mostly fsync).
 *
 *   npm run bench:replay
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock, type ChatCompletionRequest } from '@copilotkit/aimock';
import { openRuntime, runSkill, runTask } from '../src/compose/index.js';
import { WORLD_TOPICS, isWorldAgentRequest, startFixtureWorld, worldAgentResponse, worldTask } from '../test/fixtures/world/index.js';

function promptText(request: ChatCompletionRequest): string {
  return request.messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n');
}

const world = await startFixtureWorld();
const mock = new LLMock({ port: 0, host: '127.0.0.1' });
// The rescue a capable small model gives: the index of the official page among the numbered candidates.
mock.on({ predicate: (request) => promptText(request).includes('You pick one value') }, (request) => {
  const text = promptText(request);
  const topic = WORLD_TOPICS.find((entry) => text.includes(`Task: Find the latest release of ${entry.name},`))!;
  const line = text.split('\n').find((candidate) => candidate.split(' ')[1] === world.officialUrl(topic.name));
  return { content: line?.split('.')[0] ?? '0', usage: { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: 1 } };
});
mock.on({ predicate: isWorldAgentRequest }, worldAgentResponse(world));
await mock.start();
const home = await mkdtemp(path.join(tmpdir(), 'forge-bench-replay-'));
const runtime = await openRuntime({
  FORGE_HOME: home,
  FORGE_MODEL: 'openai:gpt-4.1-mini',
  OPENAI_API_KEY: 'bench-key',
  OPENAI_BASE_URL: `${mock.url}/v1`,
  FORGE_SEARCH: 'searxng',
  FORGE_SEARXNG_URL: world.searchUrl,
  FORGE_ALLOW_HOSTS: world.allowHosts,
  FORGE_RESOLVE: world.resolve,
});

const FIXED_COST_REPLAYS = 200;

/** What a replay cost beyond its tools: the wall time from the call to `runSkill` to its result, less the tool calls' time. */
function fixedCostOf(replay: Awaited<ReturnType<typeof runSkill>>, startedAt: number): number {
  return performance.now() - startedAt - replay.steps.reduce((total, step) => total + step.duration_ms, 0);
}

interface Row {
  topic: string;
  agentCalls: number;
  agentTokens: number;
  agentMs: number;
  agentOfficial: boolean;
  replayMode: string;
  replayCalls: number;
  replayTokens: number;
  replayMs: number;
  strategy: string;
  replayOfficial: boolean;
}

try {
  const rows: Row[] = [];
  const fixedCosts: number[] = [];
  let skillName: string | undefined;
  for (const topic of WORLD_TOPICS) {
    const agent = await runTask(runtime, { task: worldTask(topic.name), maxRetries: 0 });
    if (skillName === undefined) skillName = (await runtime.skills.saveFromRun(agent.run_id, { name: 'latest-release-notes' })).document.name;
    const replayStarted = performance.now();
    const replay = await runSkill(runtime, { skill: skillName!, inputs: { topic: topic.name } });
    if (replay.llm_calls === 0) fixedCosts.push(fixedCostOf(replay, replayStarted));
    const chosen = replay.steps[1]?.resolutions[0];
    rows.push({
      topic: topic.name,
      agentCalls: agent.llm_calls,
      agentTokens: agent.tokens.input + agent.tokens.output,
      agentMs: agent.duration_ms,
      agentOfficial: (agent.steps[1]?.input as { url?: string } | undefined)?.url === world.officialUrl(topic.name),
      replayMode: replay.mode,
      replayCalls: replay.llm_calls,
      replayTokens: replay.tokens.input + replay.tokens.output,
      replayMs: replay.duration_ms,
      strategy: chosen?.strategy ?? replay.error?.name ?? '?',
      replayOfficial: chosen?.value === world.officialUrl(topic.name),
    });
  }
  const header = ['topic', 'agent calls', 'agent tokens', 'agent ms', 'replay', 'replay calls', 'replay tokens', 'replay ms', 'url chosen by', 'official?'];
  const cells = rows.map((row) => [
    row.topic,
    String(row.agentCalls),
    String(row.agentTokens),
    row.agentMs.toFixed(0),
    row.replayMode,
    String(row.replayCalls),
    String(row.replayTokens),
    row.replayMs.toFixed(0),
    row.strategy,
    row.replayOfficial ? 'yes' : 'NO',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const format = (line: readonly string[]) => line.map((cell, column) => cell.padStart(widths[column]!)).join('  ');
  console.log(format(header));
  for (const line of cells) console.log(format(line));
  const sum = (pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const withoutModel = rows.filter((row) => row.replayCalls === 0).length;
  const tokenShare = (100 * sum((row) => row.replayTokens)) / sum((row) => row.agentTokens);
  console.log(`
agent:   ${sum((row) => row.agentCalls)} model calls, ${sum((row) => row.agentTokens)} tokens, ${sum((row) => row.agentMs).toFixed(0)} ms over ${rows.length} topics
replays: ${sum((row) => row.replayCalls)} model calls, ${sum((row) => row.replayTokens)} tokens, ${sum((row) => row.replayMs).toFixed(0)} ms over ${rows.length} topics
replays resolved without any model call: ${withoutModel}/${rows.length} = ${((100 * withoutModel) / rows.length).toFixed(1)}%   (target ≥ 90%)
replay tokens / agent tokens: ${tokenShare.toFixed(2)}%   (target < 5%)
official page chosen: agent ${rows.filter((row) => row.agentOfficial).length}/${rows.length}, replay ${rows.filter((row) => row.replayOfficial).length}/${rows.length}`);
  // The first replays above paid for loading and compiling the code; these are the steady state.
  const warmUp = fixedCosts.length;
  for (let round = 0; fixedCosts.length < warmUp + FIXED_COST_REPLAYS; round += 1) {
    const topic = WORLD_TOPICS[round % WORLD_TOPICS.length]!;
    const replayStarted = performance.now();
    const replay = await runSkill(runtime, { skill: skillName!, inputs: { topic: topic.name } });
    if (replay.llm_calls === 0) fixedCosts.push(fixedCostOf(replay, replayStarted));
  }
  const sorted = fixedCosts.slice(warmUp).sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!.toFixed(2);
  console.log(`
fixed cost per replay (wall time of runSkill less its tool calls, ${sorted.length} replays without a model call):
| | ms a replay |
|---|---|
| before the group-commit store (concurrency issue's baseline) | 6–16 |
| now: median | ${at(0.5)} (target < 3) |
| now: p90 | ${at(0.9)} |
| now: fastest / slowest | ${sorted[0]!.toFixed(2)} / ${sorted.at(-1)!.toFixed(2)} |`);
} finally {
  await runtime.close();
  await mock.stop();
  await world.close();
  await rm(home, { recursive: true, force: true });
}
