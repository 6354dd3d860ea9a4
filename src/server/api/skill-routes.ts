import { NotFoundError, type SkillRecord } from '../../core/index.js';
import { parseSkillDocument, SkillConflictError } from '../../skills/index.js';
import type { SkillDocument } from '../../skills/index.js';
import type { ApiRoute, RouteContext } from './api-route.js';
import { errorView, newRecordOwner, requireOwnedRun, runPrincipal } from './owned-records.js';
import {
  importSkillRequestSchema,
  runSkillRequestSchema,
  saveSkillRequestSchema,
  savedSkillSchema,
  skillDetailSchema,
  skillListSchema,
  skillReplaySchema,
  skillTestSchema,
  skillVersionListSchema,
} from '../../contract/index.js';

function skillSummary(record: Pick<SkillRecord, 'version' | 'status'>, document: SkillDocument) {
  return {
    skill: document.name,
    version: record.version,
    description: document.description,
    status: record.status,
    task_template: document.task_template,
    inputs: Object.keys(document.variables_schema.properties),
    steps: document.steps.length,
  };
}

/** A stored skill of the caller's; others' are answered as missing. */
async function requireOwnedSkill(context: RouteContext, reference: string): Promise<{ record: SkillRecord; document: SkillDocument }> {
  const missing = () => new NotFoundError('skill', reference, 'List your skills with GET /api/v1/skills.');
  const loaded = await context.runtime.skills.load(reference).catch(() => {
    throw missing();
  });
  if (!context.owns(loaded.record.userId)) throw missing();
  return loaded;
}

/** The caller's skills: saved from their runs, listed, replayed. */
export const skillRoutes: readonly ApiRoute[] = [
  {
    method: 'post',
    path: '/skills',
    summary: 'Save a completed run of yours as a skill; the answer previews the abstraction (template, inputs, steps, write constants).',
    access: 'skills:write',
    body: saveSkillRequestSchema,
    response: savedSkillSchema,
    status: 201,
    async handle(context) {
      const body = saveSkillRequestSchema.parse(context.body);
      const run = await requireOwnedRun(context, body.run_id);
      const userId = newRecordOwner(context);
      const saved = await context.runtime.skills.saveFromRun(run.id, { ...(body.name === undefined ? {} : { name: body.name }), ...(body.description === undefined ? {} : { description: body.description }), userId });
      return { skill: skillSummary({ version: saved.version, status: 'active' }, saved.document), write_constants: saved.write_constants.map((constant) => ({ name: constant.name, value: constant.value })) };
    },
  },
  {
    method: 'get',
    path: '/skills',
    summary: 'Your stored skills at their current versions.',
    access: 'skills:read',
    response: skillListSchema,
    async handle(context) {
      const entries = await context.runtime.skills.list();
      return { skills: entries.flatMap((entry) => (entry.document !== null && context.owns(entry.record.userId) ? [skillSummary(entry.record, entry.document)] : [])) };
    },
  },
  {
    method: 'post',
    path: '/skills/:skill/run',
    summary: 'Replay one of your skills (name or name@version) with inputs, as a run of yours; dry_run resolves everything and writes nothing.',
    access: 'skills:run',
    body: runSkillRequestSchema,
    response: skillReplaySchema,
    async handle(context) {
      const body = runSkillRequestSchema.parse(context.body ?? {});
      const { record } = await requireOwnedSkill(context, context.params['skill']!);
      const submitted = await context.runtime.runs.submit(
        {
          kind: 'skill_replay',
          skill: `${record.name}@${record.version}`,
          inputs: body.inputs,
          ...(body.dry_run === true ? { dry_run: true } : {}),
          ...(body.mode === undefined ? {} : { mode: body.mode }),
        },
        runPrincipal(context),
        { signal: context.request.signal },
      );
      const result = await submitted.result();
      return {
        run_id: result.run_id,
        skill: result.skill,
        status: result.status,
        mode: result.mode,
        answer: result.answer,
        answer_source: result.answer_source,
        answer_note: result.answer_note,
        outputs: result.outputs,
        llm_calls: result.llm_calls,
        cost_usd: result.cost_usd,
        error: errorView(result.error),
      };
    },
  },
  {
    method: 'get',
    path: '/skills/:skill',
    summary: 'One of your skills (name or name@version) with its whole document: what export writes.',
    access: 'skills:read',
    response: skillDetailSchema,
    async handle(context) {
      const { record, document } = await requireOwnedSkill(context, context.params['skill']!);
      return { skill: skillSummary(record, document), document: document as unknown as Record<string, unknown> };
    },
  },
  {
    method: 'get',
    path: '/skills/:skill/versions',
    summary: 'Your skill\'s versions with their lineage, oldest first.',
    access: 'skills:read',
    response: skillVersionListSchema,
    async handle(context) {
      const { record } = await requireOwnedSkill(context, context.params['skill']!);
      const versions = await context.runtime.store.skills.versions(record.id);
      return { skill: record.name, current_version: record.currentVersion, versions: versions.map((version) => ({ version: version.version, note: version.note, parent_version: version.parentVersion, created_at: version.createdAt })) };
    },
  },
  {
    method: 'post',
    path: '/skills/:skill/test',
    summary: 'Replay your skill offline against each of its recordings (no tool runs, no model call).',
    access: 'skills:run',
    response: skillTestSchema,
    async handle(context) {
      const { record } = await requireOwnedSkill(context, context.params['skill']!);
      const report = await context.runtime.skills.test(`${record.name}@${record.version}`);
      return { skill: report.skill, passed: report.passed, problems: [...report.problems], recordings: report.recordings.map((recording) => ({ run_id: recording.run_id, passed: recording.passed, problems: [...recording.problems] })) };
    },
  },
  {
    method: 'post',
    path: '/skills/import',
    summary: 'Import a skill document as a skill of yours (a new version when you hold that name already).',
    access: 'skills:write',
    body: importSkillRequestSchema,
    response: savedSkillSchema,
    status: 201,
    async handle(context) {
      const body = importSkillRequestSchema.parse(context.body);
      const document = parseSkillDocument(body.document);
      const holder = await context.runtime.store.skills.get(document.name);
      // Skill names are the installation's: a name another account holds is refused, never versioned onto theirs.
      if (holder !== undefined && !context.owns(holder.userId)) throw new SkillConflictError(document.name, `The skill name "${document.name}" is taken.`, 'Rename the skill in the document and import it again.');
      const saved = await context.runtime.skills.import(document, { userId: newRecordOwner(context) });
      return { skill: skillSummary({ version: saved.version, status: 'active' }, saved.document), write_constants: saved.write_constants.map((constant) => ({ name: constant.name, value: constant.value })) };
    },
  },
];
