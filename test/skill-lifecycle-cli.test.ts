import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/core/index.js';
import { loadConfig } from '../src/config/forge-config.js';
import { runCli } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { inStoreProcess } from './support/store-process.js';

const MODEL = 'openai:gpt-4.1-mini';
/** Only generic words: no request value to make a variable of, so its skill's template is the task itself. */
const FIXED_TASK = 'Find the latest release notes and summarize them.';
const OTHER_TASK = 'Read the caching guide for me.';

interface SkillRow {
  name: string;
  version: number;
  status: string;
  problem: string | null;
}

/** The skill lifecycle from the built CLI: names checked before storing, no silent repeats, remove, rename, broken entries, the identical repeat replayed. */
describe('skill lifecycle without traps', () => {
  let world: EngineWorld;
  let fixedRun: string;
  let otherRun: string;

  /** `work` on the store the CLI uses, in a process of its own (see `inStoreProcess`): it may use only `store` and `args`. */
  function withStore<Result, Args = null>(work: (store: Store, args: Args) => Promise<Result>, args?: Args): Promise<Result> {
    return inStoreProcess(loadConfig(world.env, world.home).databaseUrl, work, (args ?? null) as Args);
  }

  async function listed(): Promise<SkillRow[]> {
    const list = await runCli(['skill', 'list', '--json'], world.env);
    expect(list.code, list.stderr).toBe(0);
    return (JSON.parse(list.stdout) as { skills: SkillRow[] }).skills;
  }

  async function versionNotes(skill: string): Promise<string[]> {
    const versions = await runCli(['skill', 'versions', skill, '--json'], world.env);
    expect(versions.code, versions.stderr).toBe(0);
    return (JSON.parse(versions.stdout) as { versions: { note: string }[] }).versions.map((version) => version.note);
  }

  async function agentRun(task: string): Promise<string> {
    const ran = await runCli(['run', '--json', '--model', MODEL, task], world.env);
    expect(ran.code, ran.stderr).toBe(0);
    return (JSON.parse(ran.stdout) as { run_id: string }).run_id;
  }

  beforeAll(async () => {
    world = await startEngineWorld();
    world.env['HOME'] = world.home;
    world.mock.on({ userMessage: FIXED_TASK, hasToolResult: false }, { toolCalls: [{ id: 'fixed_read', name: 'read_url', arguments: { url: world.web.pages.article } }], usage: { prompt_tokens: 60, completion_tokens: 10 } });
    world.mock.on({ toolCallId: 'fixed_read' }, { content: 'Tool results are cached by name and arguments.', usage: { prompt_tokens: 600, completion_tokens: 9 } });
    world.mock.on({ userMessage: OTHER_TASK, hasToolResult: false }, { toolCalls: [{ id: 'other_read', name: 'read_url', arguments: { url: world.web.pages.text } }], usage: { prompt_tokens: 60, completion_tokens: 10 } });
    world.mock.on({ toolCallId: 'other_read' }, { content: 'The release notes.', usage: { prompt_tokens: 400, completion_tokens: 4 } });
    fixedRun = await agentRun(FIXED_TASK);
    otherRun = await agentRun(OTHER_TASK);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('refuses a name that is not kebab-case with the reason, before anything is stored', async () => {
    for (const [name, reason] of [
      ['Latest Notes', 'it contains whitespace'],
      ['LatestNotes', 'it contains uppercase letters'],
      ['notes_v2', 'it contains "_"; only a-z, 0-9 and "-" are allowed'],
      ['notes--v2', 'it contains "--"'],
      ['notes@2', 'it contains "@", which marks a version (name@3)'],
      ['x'.repeat(65), 'it is 65 characters long, more than 64'],
    ]) {
      const refused = await runCli(['skill', 'save', fixedRun, '--name', name!], world.env);
      expect(refused.code, name).toBe(1);
      expect(refused.stderr).toContain(`"${name}" is not a valid skill name: ${reason}. Skill names are kebab-case`);
      expect(refused.stderr).toContain('Nothing was stored.');
    }
    const json = await runCli(['skill', 'save', fixedRun, '--name', 'Latest Notes', '--json'], world.env);
    expect(JSON.parse(json.stdout)).toEqual({ error: { name: 'SkillNameError', message: expect.stringContaining('it contains whitespace'), hint: 'e.g. latest-notes' } });
    expect(await listed()).toEqual([]);
    expect(await withStore((store) => store.skills.list())).toEqual([]);
  });

  it('refuses saving the same run twice or reusing a name unless --force, which saves a new version of that skill', async () => {
    const saved = await runCli(['skill', 'save', fixedRun.slice(0, 8), '--name', 'fixed-notes', '--json'], world.env);
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)).toMatchObject({ name: 'fixed-notes', skill_version: 1, task_template: FIXED_TASK, variables_schema: { properties: {}, required: [] } });

    const again = await runCli(['skill', 'save', fixedRun, '--name', 'another-name'], world.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Run ${fixedRun} is already saved as skill "fixed-notes" (version 1). Nothing was stored.`);
    expect(again.stderr).toContain('pass --force to save the run again as skill "another-name"');
    const reused = await runCli(['skill', 'save', otherRun, '--name', 'fixed-notes', '--json'], world.env);
    expect(reused.code).toBe(1);
    expect(JSON.parse(reused.stdout)).toEqual({
      error: { name: 'SkillConflictError', message: 'A skill named "fixed-notes" exists already (version 1). Nothing was stored.', hint: 'Choose another name with --name, or pass --force to save this run as version 2 of "fixed-notes".' },
    });
    const into = await runCli(['skill', 'save', fixedRun, '--into', 'fixed-notes'], world.env);
    expect(into.code).toBe(1);
    expect(into.stderr).toContain(`Run ${fixedRun} is already a recording of skill "fixed-notes". Nothing was stored.`);
    expect(await listed()).toMatchObject([{ name: 'fixed-notes', version: 1 }]);
    expect(await versionNotes('fixed-notes')).toEqual([`saved from run ${fixedRun}`]);

    const forcedName = await runCli(['skill', 'save', otherRun, '--name', 'fixed-notes', '--force', '--json'], world.env);
    expect(forcedName.code, forcedName.stderr).toBe(0);
    expect(JSON.parse(forcedName.stdout)).toMatchObject({ name: 'fixed-notes', skill_version: 2, task_template: OTHER_TASK });
    const forcedRun = await runCli(['skill', 'save', fixedRun, '--name', 'fixed-notes', '--force'], world.env);
    expect(forcedRun.code, forcedRun.stderr).toBe(0);
    expect(forcedRun.stdout).toContain('saved skill fixed-notes@3');
    expect(await listed()).toMatchObject([{ name: 'fixed-notes', version: 3, problem: null }]);
    expect(await versionNotes('fixed-notes')).toEqual([`saved from run ${fixedRun}`, `saved from run ${otherRun}`, `saved from run ${fixedRun}`]);
  });

  it('forge run --skills replays a skill without variables when the task is exactly its task: no model call', async () => {
    const requestsBefore = world.mock.getRequests().length;

    const replayed = await runCli(['run', '--skills', '--json', '--model', MODEL, FIXED_TASK], world.env);

    expect(replayed.code, replayed.stderr).toBe(0);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ replayed_skill: 'fixed-notes', status: 'completed', mode: 'deterministic', llm_calls: 0, tokens: { input: 0, output: 0 }, steps: [{ tool: 'read_url', arguments: { url: world.web.pages.article } }] });
    expect(world.mock.getRequests().length).toBe(requestsBefore);

    // A different task is not the skill's: the full agent runs.
    world.mock.on({ userMessage: 'Find the latest release notes and email them.', hasToolResult: false }, { content: 'No.', usage: { prompt_tokens: 20, completion_tokens: 1 } });
    const other = await runCli(['run', '--skills', '--json', '--model', MODEL, 'Find the latest release notes and email them.'], world.env);
    expect(JSON.parse(other.stdout)).toMatchObject({ replayed_skill: null, llm_calls: 1 });
  });

  it('a broken skill entry is listed with its problem, shown raw, refused with the way out, removed, and blocks no other skill', async () => {
    const brokenDocument = { format: 'forge-skill', version: 2, name: 'broken-one', steps: 'hand-edited into a string' };
    await withStore((store, document) => store.skills.save({ id: 'broken-id', name: 'broken-one', description: 'edited by hand', document, note: 'saved' }), brokenDocument);

    const rows = await listed();
    expect(rows.map((row) => [row.name, row.problem === null])).toEqual([
      ['fixed-notes', true],
      ['broken-one', false],
    ]);
    expect(rows[1]!.problem).toContain('Not a readable skill document');
    const text = await runCli(['skill', 'list'], world.env);
    expect(text.stdout).toContain('broken-one@1  broken: Not a readable skill document');
    expect(text.stdout).toContain('see it: forge skill show broken-one --raw · remove it: forge skill remove broken-one');

    const shown = await runCli(['skill', 'show', 'broken-one'], world.env);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain('Stored skill "broken-one" cannot be read: Not a readable skill document');
    expect(shown.stderr).toContain('forge skill show broken-one --raw');
    const raw = await runCli(['skill', 'show', 'broken-one', '--raw'], world.env);
    expect(raw.code, raw.stderr).toBe(0);
    expect(JSON.parse(raw.stdout)).toEqual(brokenDocument);

    const replayed = await runCli(['run', '--skills', '--json', '--model', MODEL, FIXED_TASK], world.env);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ replayed_skill: 'fixed-notes', llm_calls: 0 });

    const removed = await runCli(['skill', 'remove', 'broken-one', '--json'], world.env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: [{ id: 'broken-id', name: 'broken-one', versions: 1 }] });
    expect((await listed()).map((row) => row.name)).toEqual(['fixed-notes']);
  });

  it('forge skill rename checks the new name, refuses a taken one, and keeps the versions under the new name', async () => {
    const other = await runCli(['skill', 'save', otherRun, '--name', 'caching-guide', '--force'], world.env);
    expect(other.code, other.stderr).toBe(0);

    const bad = await runCli(['skill', 'rename', 'fixed-notes', 'Release Digest'], world.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"Release Digest" is not a valid skill name: it contains whitespace');
    const taken = await runCli(['skill', 'rename', 'fixed-notes', 'caching-guide'], world.env);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('A skill named "caching-guide" exists already (version 1). Nothing was stored.');
    expect((await listed()).map((row) => [row.name, row.version])).toEqual([
      ['fixed-notes', 3],
      ['caching-guide', 1],
    ]);

    const renamed = await runCli(['skill', 'rename', 'fixed-notes', 'release-digest', '--json'], world.env);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ name: 'release-digest', previous_name: 'fixed-notes', version: 4 });
    expect(await versionNotes('release-digest')).toEqual([`saved from run ${fixedRun}`, `saved from run ${otherRun}`, `saved from run ${fixedRun}`, 'renamed from fixed-notes']);
    const gone = await runCli(['skill', 'show', 'fixed-notes'], world.env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('No skill with name or id "fixed-notes"');
    const older = await runCli(['skill', 'show', 'release-digest@1', '--json'], world.env);
    expect(JSON.parse(older.stdout)).toMatchObject({ name: 'release-digest', skill_version: 1 });
    const replayed = await runCli(['skill', 'run', 'release-digest', '--json'], world.env);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ skill: 'release-digest', status: 'completed', llm_calls: 0 });
  });

  it('forge skill remove deletes skills with every version, all or nothing', async () => {
    const version = await runCli(['skill', 'remove', 'release-digest@2'], world.env);
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('"release-digest@2" names a version; a skill is removed with all its versions.');
    const unknown = await runCli(['skill', 'remove', 'release-digest', 'no-such-skill'], world.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No skill with name or id "no-such-skill"');
    expect((await listed()).map((row) => row.name)).toEqual(['release-digest', 'caching-guide']);

    const removed = await runCli(['skill', 'remove', 'release-digest', 'caching-guide'], world.env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe('removed skill release-digest (4 versions)\nremoved skill caching-guide (1 version)\n');
    expect(await listed()).toEqual([]);
    expect(await withStore((store) => store.skills.versions('release-digest'))).toEqual([]);
    // The runs they were saved from stay, and can be saved again.
    const resaved = await runCli(['skill', 'save', fixedRun, '--name', 'fixed-notes'], world.env);
    expect(resaved.code, resaved.stderr).toBe(0);
    expect(resaved.stdout).toContain('saved skill fixed-notes@1');
  });
});
