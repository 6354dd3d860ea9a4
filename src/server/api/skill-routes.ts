import { NotFoundError, type SkillRecord } from '../../core/index.js';
import { runSkill } from '../../runtime/index.js';
import type { SkillDocument } from '../../skills/index.js';
import type { ApiRoute, RouteContext } from './api-route.js';
import { newRecordOwner, requireOwnedRun } from './owned-records.js';
import { runSkillRequestSchema, saveSkillRequestSchema, savedSkillSchema, skillListSchema, skillReplaySchema } from './skill-schemas.js';

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
      const result = await runSkill(context.runtime, {
        skill: `${record.name}@${record.version}`,
        inputs: body.inputs,
        ...(body.dry_run === true ? { dryRun: true } : {}),
        userId: newRecordOwner(context),
      });
      return {
        run_id: result.run_id,
        skill: result.skill,
        status: result.status,
        mode: result.mode,
        answer: result.answer,
        llm_calls: result.llm_calls,
        cost_usd: result.cost_usd,
        error: result.error === null ? null : { name: result.error.name, message: result.error.message, ...(result.error.hint === undefined ? {} : { hint: result.error.hint }) },
      };
    },
  },
];
