import { z } from 'zod';
import { NetworkBlockedError, callSideEffect, defineTool, type AnyTool, type ApprovalGate, type GuardedFetch, type Policy } from '../core/index.js';
import { InProcessEventBus, createRunEmitter } from '../events/index.js';
import { CostMeter } from '../llm/index.js';
import { ToolRegistry, type ToolSet } from '../tools/index.js';
import { replaySkill } from './replay/replay-skill.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { Recording, SkillDocument } from './document/skill-document.js';
import { readTemplate } from './document/templates.js';
import { parseJsonPath, valueAtPath, type JsonPath } from './json-path.js';
import type { Chooser } from './replay/rescue-choice.js';
import { toolSchemaProblems } from './skill-health.js';

/**
 * A registry whose tools answer from the skill's recording instead of the world: same names, same input
 * schemas as the live tools (so a changed schema still shows), and for an input that was recorded, the
 * recorded result. Any other input is an error naming the tool, so a binding that resolves differently
 * than when recorded cannot pass unnoticed. Nothing reaches the network.
 */
export function cassetteRegistry(recording: Recording, live: ToolSet): ToolRegistry {
  const registry = new ToolRegistry();
  for (const name of new Set(recording.steps.map((step) => step.tool))) {
    const liveTool: AnyTool | undefined = live.get(name);
    const inputSchema = liveTool?.inputSchema ?? z.record(z.string(), z.unknown());
    const recorded = recording.steps
      .filter((step) => step.tool === name)
      .map((step) => {
        const parsed = inputSchema.safeParse(step.input ?? {});
        return { input: canonicalJson(parsed.success ? parsed.data : step.input), result: step.result };
      });
    registry.register(
      defineTool({
        name,
        description: liveTool?.description ?? `Recorded ${name}`,
        inputSchema,
        ...(liveTool?.inputJsonSchema === undefined ? {} : { inputJsonSchema: liveTool.inputJsonSchema }),
        risk: 'low',
        // The same side effect as the live tool, call by call (a GET reads, a POST writes), so the write
        // gate judges the test's replay exactly as it judges a live one.
        sideEffect: liveTool?.sideEffect ?? 'write',
        sideEffectOf: (input: unknown) => (liveTool === undefined ? 'write' : callSideEffect(liveTool, input)),
        async execute(input: unknown) {
          const hit = recorded.find((entry) => entry.input === canonicalJson(input));
          if (hit === undefined) throw new Error(`the cassette has no recorded ${name} call with input ${canonicalJson(input)}`);
          return hit.result;
        },
      }),
    );
  }
  return registry;
}

/** One step of a recording replayed against it: whether the replay asked what the recording asked. */
export interface SkillTestStep {
  readonly index: number;
  readonly tool: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly matches: boolean;
  readonly strategies: readonly string[];
}

/** What `forge skill test` found: per recording the skill was generalised from, per step. */
export interface SkillTestReport {
  readonly skill: string;
  readonly passed: boolean;
  readonly problems: readonly string[];
  /** The steps of the first recording (the one the skill was saved from). */
  readonly steps: readonly SkillTestStep[];
  readonly recordings: readonly { readonly run_id: string; readonly passed: boolean; readonly problems: readonly string[]; readonly steps: readonly SkillTestStep[] }[];
}

function sameRecorded(candidate: unknown, recorded: unknown): boolean {
  if (candidate === recorded) return true;
  return typeof recorded === 'string' && typeof candidate === 'number' ? Number(recorded) === candidate : false;
}

/**
 * Chooses what the recording chose: the candidates equal to the value the recorded call sent for that
 * argument (or template slot). `forge skill test` replays a recording against itself, so the recording
 * is the rescue that knows the answer; its answer is validated like any rescue's.
 */
function recordingChooser(document: SkillDocument, recording: Recording): Chooser {
  return async (request) => {
    const sent = valueAtPath(recording.steps[request.target.step]?.input, parseJsonPath(request.target.path) as JsonPath);
    const binding = document.steps[request.target.step]?.arguments.find((argument) => argument.path === request.target.path)?.binding;
    const recorded = request.target.slot === undefined ? sent : binding?.kind === 'template' && typeof sent === 'string' ? readTemplate(binding.template, sent)?.[request.target.slot] : undefined;
    const wanted = Array.isArray(recorded) ? recorded : [recorded];
    const indexes: number[] = [];
    for (const value of wanted) {
      const index = request.candidates.findIndex((candidate, at) => !indexes.includes(at) && sameRecorded(candidate.value, value));
      if (index < 0) return { accepted: false, reason: `the recording's ${request.argument} (${JSON.stringify(value)}) is not among the candidates`, answer: '' };
      indexes.push(index);
    }
    if (request.cardinality === 'one' && indexes.length !== 1) return { accepted: false, reason: 'the recording sent a list where one value is chosen', answer: '' };
    return { accepted: true, indexes, answer: 'as recorded' };
  };
}

async function testOneRecording(document: SkillDocument, recording: Recording, live: ToolSet, access: { policy: Policy; approvals: ApprovalGate }) {
  const bus = new InProcessEventBus();
  const emitter = createRunEmitter(bus, `skill-test-${document.id}-${recording.run_id}`);
  const replay = await replaySkill({
    document,
    inputs: recording.inputs,
    mode: 'guided',
    request: recording.task,
    chooser: recordingChooser(document, recording),
    registry: cassetteRegistry(recording, live),
    policy: access.policy,
    approvals: access.approvals,
    emitter,
    meter: new CostMeter(null),
    toolContext: { fetch: refuseNetwork, utilityModel: undefined },
  });
  const steps = recording.steps.map((recorded, index): SkillTestStep => {
    const actual = replay.steps[index]?.arguments;
    const tool = live.get(recorded.tool);
    const parsed = tool?.inputSchema.safeParse(recorded.input);
    const expected = parsed?.success === true ? parsed.data : recorded.input;
    return {
      index,
      tool: recorded.tool,
      expected,
      actual: actual ?? null,
      matches: actual !== undefined && canonicalJson(tool?.inputSchema.safeParse(actual).data ?? actual) === canonicalJson(expected),
      strategies: replay.steps[index]?.resolutions.map((resolution) => `${resolution.name}: ${resolution.strategy}`) ?? [],
    };
  });
  const mismatches = steps.filter((step) => !step.matches).map((step) => `step ${step.index} (${step.tool}) resolved ${canonicalJson(step.actual)} where the recording has ${canonicalJson(step.expected)}`);
  const failure = replay.error === null ? [] : [`${replay.error.name}: ${replay.error.message}`];
  const problems = [...mismatches, ...failure];
  return { run_id: recording.run_id, passed: problems.length === 0, problems, steps };
}

/**
 * Re-runs a skill on each recording it was generalised from, with that recording's inputs, against
 * that recording's tool outputs (a cassette), offline and without any model (a choice a live replay
 * would ask the rescue for is answered from the recording, and reported as `llm_rescue`): each step
 * must resolve to exactly the arguments recorded, the output contract must hold, no write may be
 * refused, and the live tools' schemas must still match. This checks a skill's bindings without
 * touching the world.
 */
export async function testSkillAgainstRecording(document: SkillDocument, catalog: ToolRegistry, access: { policy: Policy; approvals: ApprovalGate }): Promise<SkillTestReport> {
  const live = catalog.snapshot();
  const schemaProblems = toolSchemaProblems(document, live);
  const recordings = [];
  for (const recording of document.recordings) recordings.push(await testOneRecording(document, recording, live, access));
  const problems = schemaProblems.length > 0 ? schemaProblems : recordings.flatMap((recording) => (document.recordings.length === 1 ? recording.problems : recording.problems.map((problem) => `recording ${recording.run_id}: ${problem}`)));
  return { skill: document.name, passed: problems.length === 0, problems, steps: recordings[0]!.steps, recordings };
}

const refuseNetwork: GuardedFetch = async (url) => {
  throw new NetworkBlockedError(url, 'a skill test runs offline against its recording');
};
