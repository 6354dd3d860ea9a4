import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock, type ChatCompletionRequest } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, runSkill, runTask, runTaskWithSkills, type ForgeRuntime } from '../src/compose/index.js';
import { testSkillAgainstRecording, type SkillDocument, type SkillModeError } from '../src/skills/index.js';
import { WORLD_TOPICS, isWorldAgentRequest, startFixtureWorld, worldAgentResponse, worldTask, type FixtureWorldServer } from './fixtures/world/index.js';

function systemText(request: ChatCompletionRequest): string {
  return request.messages.filter((message) => message.role === 'system').map((message) => (typeof message.content === 'string' ? message.content : '')).join('');
}

function promptText(request: ChatCompletionRequest): string {
  return request.messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n');
}

/** The candidate number a careful rescue model gives: the line that lists exactly the official URL. */
function officialIndex(request: ChatCompletionRequest, officialUrl: string): string {
  const line = promptText(request)
    .split('\n')
    .find((candidate) => candidate.split(' ')[1] === officialUrl);
  return line?.split('.')[0] ?? 'none';
}

describe('skills: record on one topic, replay on every other topic of the fixture world', () => {
  const mock = new LLMock({ port: 0, host: '127.0.0.1' });
  let world: FixtureWorldServer;
  let runtime: ForgeRuntime;
  let home: string;
  let skill: SkillDocument;
  let recordedRun: Awaited<ReturnType<typeof runTask>>;
  /** What the rescue model answers; a function of the request so it can find the real candidate. */
  let rescueAnswer: (request: ChatCompletionRequest) => string = () => 'none';
  const recordedTopic = WORLD_TOPICS[0]!;

  beforeAll(async () => {
    world = await startFixtureWorld();
    await mock.start();
    mock.on({ predicate: (request) => systemText(request).includes('You pick one value') }, (request) => ({ content: rescueAnswer(request), usage: { prompt_tokens: 180, completion_tokens: 2 } }));
    mock.on({ predicate: (request) => systemText(request).includes('Write the answer to the task from the tool results') }, { content: 'Orbit 9.0.0: what changed, from the fresh release notes.', usage: { prompt_tokens: 320, completion_tokens: 14 } });
    mock.on({ predicate: isWorldAgentRequest }, worldAgentResponse(world));
    home = await mkdtemp(path.join(tmpdir(), 'forge-skills-'));
    runtime = await openRuntime({
      FORGE_HOME: home,
      FORGE_MODEL: 'openai:gpt-4.1-mini',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: `${mock.url}/v1`,
      FORGE_SEARCH: 'searxng',
      FORGE_SEARXNG_URL: world.searchUrl,
      FORGE_ALLOW_HOSTS: world.allowHosts,
      FORGE_RESOLVE: world.resolve,
    });
    recordedRun = await runTask(runtime, { task: worldTask(recordedTopic.name), maxRetries: 0 });
    skill = (await runtime.skills.saveFromRun(recordedRun.run_id, { name: 'latest-release-notes' })).document;
  });

  afterAll(async () => {
    await runtime?.close();
    await mock.stop();
    await world?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('records a full reasoning run and abstracts it conservatively: the topic is a variable, the URL stays bound to the search result', () => {
    expect(recordedRun).toMatchObject({ status: 'completed', llm_calls: 3 });
    expect(recordedRun.steps.map((step) => step.tool)).toEqual(['web_search', 'read_url']);
    expect(skill.task_template).toBe('Find the latest release of {{topic}}, choose the official documentation and summarize what changed.');
    expect(skill.variables_schema).toEqual({
      type: 'object',
      properties: { topic: { type: 'string', description: expect.stringContaining('lumen'), examples: ['lumen'] } },
      required: ['topic'],
      additionalProperties: false,
    });
    expect(skill.steps[0]!.arguments).toEqual([
      { path: 'query', binding: { kind: 'template', template: '{{topic}} latest release', slots: { topic: { kind: 'input', name: 'topic' } } } },
      { path: 'max_results', binding: { kind: 'constant', value: 10, pinned: false } },
    ]);
    expect(skill.steps.map((step) => step.side_effect)).toEqual(['read', 'read']);
    const url = skill.steps[1]!.arguments[0]!;
    expect(url).toEqual({ path: 'url', binding: { kind: 'selected', selection: 'result', field: 'url' } });
    expect(skill.selections).toEqual([{ name: 'result', cardinality: 'one', steps: [0], collection: 'results[*]', field: 'url', scoring: 'url', conditions: [], recorded: [world.officialUrl('lumen')] }]);
    expect(skill.tools.map((tool) => tool.name)).toEqual(['web_search', 'read_url']);
    expect(skill.provenance).toMatchObject({ run_id: recordedRun.run_id, model: 'openai:gpt-4.1-mini' });
  });

  for (const topic of WORLD_TOPICS.slice(1)) {
    it(`replays on "${topic.name}": the official docs are chosen ${topic.ambiguous ? 'by a validated rescue' : 'with zero model calls'}`, async () => {
      rescueAnswer = (request) => officialIndex(request, world.officialUrl(topic.name));
      const requestsBefore = mock.getRequests().length;

      const replay = await runSkill(runtime, { skill: 'latest-release-notes', inputs: { topic: topic.name } });

      const modelRequests = mock.getRequests().length - requestsBefore;
      expect(replay.status).toBe('completed');
      expect(replay.mode).toBe('guided');
      expect(replay.steps[0]!.arguments).toEqual({ query: `${topic.name} latest release`, max_results: 10 });
      expect(replay.steps[1]!.arguments).toEqual({ url: world.officialUrl(topic.name) });
      const resolution = replay.steps[1]!.resolutions[0]!;
      expect(resolution.strategy).toBe(topic.ambiguous ? 'llm_rescue' : 'heuristic');
      expect(resolution.candidates).toBe(topic.ambiguous ? 7 : 6);
      expect(replay.llm_calls).toBe(topic.ambiguous ? 1 : 0);
      expect(modelRequests).toBe(replay.llm_calls);
      expect(replay.tokens).toEqual(topic.ambiguous ? { input: 180, output: 2 } : { input: 0, output: 0 });
      expect(replay.answer).toContain(`${topic.name[0]!.toUpperCase()}${topic.name.slice(1)} ${topic.version} release notes`);
    });
  }

  it('logs a replay as a run: skill-step events with strategies and scores, tool calls through dispatch, stored totals', async () => {
    const replay = await runSkill(runtime, { skill: 'latest-release-notes', inputs: { topic: 'kestrel' } });
    const lines = (await readFile(replay.log_file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });

    expect(lines.map((event) => event.type)).toEqual([
      'run-start',
      'skill-step', 'tool-call-start', 'policy-decision', 'tool-result',
      'skill-step', 'tool-call-start', 'policy-decision', 'tool-result',
      'run-end',
    ]);
    const step = lines[5] as unknown as { resolutions: { strategy: string; scores: { value: string; score: number }[] }[] };
    expect(step.resolutions[0]!.strategy).toBe('heuristic');
    const scores = step.resolutions[0]!.scores;
    const official = scores.find((entry) => entry.value === world.officialUrl('kestrel'))!;
    expect(Math.max(...scores.filter((entry) => entry !== official).map((entry) => entry.score))).toBeLessThanOrEqual(official.score - 3);
    expect(lines.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', llm_calls: 0, tokens: { input: 0, output: 0 } });
    expect(await runtime.store.runs.get(replay.run_id)).toMatchObject({ status: 'completed', llmCalls: 0 });
    expect((await runtime.store.steps.list(replay.run_id)).map((stored) => stored.tool)).toEqual(['web_search', 'read_url']);
  });

  it('replays deterministically, with no model request at all, when every dependent value is supplied', async () => {
    const requestsBefore = mock.getRequests().length;
    const replay = await runSkill(runtime, { skill: 'latest-release-notes', mode: 'deterministic', inputs: { topic: 'sable', 'steps[1].url': world.officialUrl('sable') } });

    expect(replay).toMatchObject({ status: 'completed', mode: 'deterministic', llm_calls: 0, tokens: { input: 0, output: 0 } });
    expect(replay.steps[1]!.resolutions[0]).toMatchObject({ name: 'steps[1].url', strategy: 'user_input' });
    expect(mock.getRequests().length).toBe(requestsBefore);
  });

  it('refuses a deterministic replay when a value still depends on a fresh result, naming it', async () => {
    const error = await runSkill(runtime, { skill: 'latest-release-notes', mode: 'deterministic', inputs: { topic: 'sable' } }).then(
      (result) => result.error,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ name: 'SkillModeError' });
    expect(String((error as SkillModeError).message)).toContain('steps[1].url');
  });

  it('without a model call the answer is the fresh result, and says why: the recorded answer summarised the page, which no value binds', async () => {
    const requestsBefore = mock.getRequests().length;
    const replay = await runSkill(runtime, { skill: 'latest-release-notes', inputs: { topic: 'orbit' } });
    expect(skill.answer?.kind).toBe('text');
    expect(replay).toMatchObject({ status: 'completed', llm_calls: 0, answer_source: 'results', summary: null });
    expect(replay.answer_note).toMatch(/could not bind/);
    expect(replay.answer).toContain('Orbit 9.0.0 release notes');
    expect(replay.answer).not.toMatch(/untrusted-content/);
    expect(mock.getRequests().length - requestsBefore).toBe(0);
  });

  it('with --summarize one counted model call writes the answer in the recorded form from the fresh results, and still returns fresh tool output in the steps', async () => {
    const requestsBefore = mock.getRequests().length;
    const replay = await runSkill(runtime, { skill: 'latest-release-notes', inputs: { topic: 'orbit' }, summarize: true });

    expect(replay).toMatchObject({ status: 'completed', llm_calls: 1, tokens: { input: 320, output: 14 }, answer: 'Orbit 9.0.0: what changed, from the fresh release notes.', answer_source: 'model', summary: null });
    expect(replay.answer_note).toMatch(/one model call wrote the answer/);
    expect(replay.steps[1]!.output).toContain('Orbit 9.0.0 release notes');
    const requests = mock.getRequests().slice(requestsBefore);
    expect(requests).toHaveLength(1);
    // The call sees the recorded answer as the form to follow and the fresh results inside the untrusted boundary.
    expect(promptText(requests[0]!.body as ChatCompletionRequest)).toContain(recordedRun.answer!);
    expect(promptText(requests[0]!.body as ChatCompletionRequest)).toMatch(/<untrusted-content-[0-9a-f]{12} source="results">[\s\S]*Orbit 9\.0\.0 release notes/);
  });

  it('forge skill test: re-runs the skill on its recorded inputs against recorded tool outputs, offline and without a model', async () => {
    const worldRequests = world.requests.length;
    const modelRequests = mock.getRequests().length;

    const report = await testSkillAgainstRecording(skill, runtime.registry, runtime);

    expect(report.problems).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.steps.map((step) => [step.tool, step.matches, step.strategies])).toEqual([
      ['web_search', true, ['query: user_input', 'steps[0].max_results: constant']],
      ['read_url', true, ['steps[1].url: heuristic']],
    ]);
    expect(world.requests.length).toBe(worldRequests);
    expect(mock.getRequests().length).toBe(modelRequests);
  });

  it('forge skill test: fails, saying where, when the bindings no longer lead to what was recorded', async () => {
    const recording = skill.recordings[0]!;
    const codeHostUrl = (recording.steps[0]!.result as { results: { url: string }[] }).results.find((result) => result.url.includes('github.com'))!.url;
    const tampered: SkillDocument = {
      ...skill,
      recordings: [{ ...recording, steps: [recording.steps[0]!, { ...recording.steps[1]!, input: { url: codeHostUrl } }] }],
    };

    const report = await testSkillAgainstRecording(tampered, runtime.registry, runtime);

    expect(report.passed).toBe(false);
    expect(report.problems[0]).toBe(`step 1 (read_url) resolved {"url":"${world.officialUrl('lumen')}"} where the recording has {"url":"${codeHostUrl}"}`);
  });

  describe('an ambiguous result set escalates to the rescue, and a rescue that does not choose a real candidate is rejected', () => {
    const ambiguous = WORLD_TOPICS.find((topic) => topic.ambiguous)!;

    for (const [label, answer, reason] of [
      ['a URL outside the candidates', 'https://docs.ferro.example/releases', 'answered with a URL that is not among the candidates'],
      ['nonsense', 'I would go with the documentation page.', 'the answer is not a candidate index'],
      ['an index out of range', '42', 'index 42 is not one of the 7 candidates'],
    ] as const) {
      it(`rejects ${label} and falls back, recording the rejection`, async () => {
        rescueAnswer = () => answer;
        const requestsBefore = mock.getRequests().length;

        const replay = await runSkill(runtime, { skill: 'latest-release-notes', inputs: { topic: ambiguous.name } });

        const resolution = replay.steps[1]!.resolutions[0]!;
        expect(mock.getRequests().length - requestsBefore).toBe(1);
        expect(replay.llm_calls).toBe(1);
        expect(resolution.strategy).toBe('default');
        expect(resolution.rejections).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ strategy: 'heuristic', reason: expect.stringContaining('under the 3-point margin') }),
            { strategy: 'llm_rescue', reason, answer },
          ]),
        );
        const candidates = resolution.scores.map((entry) => entry.value);
        expect(candidates).toContain(resolution.value);
        expect(candidates).not.toContain(answer);
        expect(replay.status).toBe('completed');
        const events = await runtime.store.events.list(replay.run_id);
        const stepEvent = events.find((event) => event.type === 'skill-step' && event.step === 1);
        expect(stepEvent).toMatchObject({ resolutions: [{ strategy: 'default', rejections: expect.arrayContaining([{ strategy: 'llm_rescue', reason, answer }]) }] });
      });
    }
  });

  it('forge run --skills replays a matching task instead of running the agent, and falls back when nothing matches', async () => {
    const requestsBefore = mock.getRequests().length;
    const matched = await runTaskWithSkills(runtime, { task: worldTask('juniper') });
    expect(matched.replayed_skill).toBe('latest-release-notes');
    expect(matched.llm_calls).toBe(0);
    expect(mock.getRequests().length).toBe(requestsBefore);
    const matchEvent = (await runtime.store.events.list(matched.run_id))[0];
    expect(matchEvent).toMatchObject({ type: 'skill-match', decision: 'replay', skill: 'latest-release-notes', inputs: { topic: 'juniper' } });

    const unmatched = await runTaskWithSkills(runtime, { task: `Compare the latest releases of juniper and cobalt.`, maxRetries: 0 });
    expect(unmatched.replayed_skill).toBeNull();
    expect((await runtime.store.events.list(unmatched.run_id))[0]).toMatchObject({ type: 'skill-match', decision: 'fallback', skill: null });
  });
});
