import { z } from 'zod';
import { NetworkBlockedError, defineTool, type AnyTool, type ApprovalGate, type GuardedFetch, type Policy } from '../core/index.js';
import { InProcessEventBus, createRunEmitter } from '../events/index.js';
import { CostMeter } from '../llm/index.js';
import { ToolRegistry } from '../tools/index.js';
import { replaySkill } from './replay/replay-skill.js';
import type { SkillDocument } from './skill-document.js';
import { toolSchemaProblems } from './skill-health.js';

function canonical(value: unknown): string {
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sorted);
    if (typeof item === 'object' && item !== null) return Object.fromEntries(Object.keys(item).sort().map((key) => [key, sorted((item as Record<string, unknown>)[key])]));
    return item;
  };
  return JSON.stringify(sorted(value));
}

/**
 * A registry whose tools answer from the skill's recording instead of the world: same names, same input
 * schemas as the live tools (so a changed schema still shows), and for an input that was recorded, the
 * recorded result. Any other input is an error naming the tool, so a binding that resolves differently
 * than when recorded cannot pass unnoticed. Nothing reaches the network.
 */
export function cassetteRegistry(document: SkillDocument, live: ToolRegistry): ToolRegistry {
  const registry = new ToolRegistry();
  for (const name of new Set(document.recording.steps.map((step) => step.tool))) {
    const liveTool: AnyTool | undefined = live.get(name);
    const inputSchema = liveTool?.inputSchema ?? z.record(z.string(), z.unknown());
    const recorded = document.recording.steps
      .filter((step) => step.tool === name)
      .map((step) => {
        const parsed = inputSchema.safeParse(step.input ?? {});
        return { input: canonical(parsed.success ? parsed.data : step.input), result: step.result };
      });
    registry.register(
      defineTool({
        name,
        description: liveTool?.description ?? `Recorded ${name}`,
        inputSchema,
        risk: 'low',
        sideEffect: 'read',
        async execute(input: unknown) {
          const hit = recorded.find((entry) => entry.input === canonical(input));
          if (hit === undefined) throw new Error(`the cassette has no recorded ${name} call with input ${canonical(input)}`);
          return hit.result;
        },
      }),
    );
  }
  return registry;
}

/** What `forge skill test` found: per step, whether the replay asked what the recording asked. */
export interface SkillTestReport {
  readonly skill: string;
  readonly passed: boolean;
  readonly problems: readonly string[];
  readonly steps: readonly { readonly index: number; readonly tool: string; readonly expected: unknown; readonly actual: unknown; readonly matches: boolean; readonly strategies: readonly string[] }[];
}

/**
 * Re-runs a skill on its recorded inputs against its recorded tool outputs (a cassette), offline and
 * without any model: each step must resolve to exactly the arguments recorded, the output contract must
 * hold, and the live tools' schemas must still match. This checks a skill's bindings without touching
 * the world.
 */
export async function testSkillAgainstRecording(document: SkillDocument, live: ToolRegistry, access: { policy: Policy; approvals: ApprovalGate }): Promise<SkillTestReport> {
  const problems = toolSchemaProblems(document, live);
  const bus = new InProcessEventBus();
  const emitter = createRunEmitter(bus, `skill-test-${document.id}`);
  const replay = await replaySkill({
    document,
    inputs: document.recording.inputs,
    mode: 'guided',
    registry: cassetteRegistry(document, live),
    policy: access.policy,
    approvals: access.approvals,
    emitter,
    meter: new CostMeter(null),
    toolContext: { fetch: refuseNetwork, utilityModel: undefined },
  });
  const steps = document.recording.steps.map((recorded, index) => {
    const actual = replay.steps[index]?.arguments;
    const tool = live.get(recorded.tool);
    const parsed = tool?.inputSchema.safeParse(recorded.input);
    const expected = parsed?.success === true ? parsed.data : recorded.input;
    return {
      index,
      tool: recorded.tool,
      expected,
      actual: actual ?? null,
      matches: actual !== undefined && canonical(tool?.inputSchema.safeParse(actual).data ?? actual) === canonical(expected),
      strategies: replay.steps[index]?.resolutions.map((resolution) => `${resolution.name}: ${resolution.strategy}`) ?? [],
    };
  });
  const mismatches = steps.filter((step) => !step.matches).map((step) => `step ${step.index} (${step.tool}) resolved ${canonical(step.actual)} where the recording has ${canonical(step.expected)}`);
  const failure = replay.error === null || problems.length > 0 ? [] : [`${replay.error.name}: ${replay.error.message}`];
  const allProblems = [...problems, ...mismatches, ...failure];
  return { skill: document.name, passed: allProblems.length === 0, problems: allProblems, steps };
}

const refuseNetwork: GuardedFetch = async (url) => {
  throw new NetworkBlockedError(url, 'a skill test runs offline against its recording');
};
