import { z } from 'zod';

/** The skill routes' bodies (the owner's view: a seller sees their own skill's abstraction). */

export const saveSkillRequestSchema = z
  .object({
    run_id: z.string().min(1).describe('A completed run of yours to abstract.'),
    name: z.string().min(1).max(64).optional().describe('kebab-case; default derived from the task.'),
    description: z.string().trim().min(1).max(2_000).optional(),
  })
  .strict();

export const skillSummarySchema = z
  .object({
    skill: z.string(),
    version: z.number().int().positive(),
    description: z.string(),
    status: z.enum(['active', 'stale']),
    task_template: z.string(),
    inputs: z.array(z.string()).describe('The variables a replay takes.'),
    steps: z.number().int().nonnegative(),
  })
  .strict();

export const savedSkillSchema = z
  .object({
    skill: skillSummarySchema,
    write_constants: z.array(z.object({ name: z.string(), value: z.unknown() }).strict()).describe('Write arguments sent as recorded: a replay refuses until each is pinned.'),
  })
  .strict()
  .describe('The saved skill with a preview of its abstraction.');

export const skillListSchema = z.object({ skills: z.array(skillSummarySchema) }).strict();

export const runSkillRequestSchema = z
  .object({
    inputs: z.record(z.string(), z.unknown()).default({}),
    dry_run: z.boolean().optional(),
    mode: z.enum(['auto', 'deterministic', 'guided']).optional().describe('auto (default): deterministic when every value is known up front, else guided; deterministic refuses rather than resolve anything at replay time.'),
  })
  .strict();

export const skillReplaySchema = z
  .object({
    run_id: z.string(),
    skill: z.string(),
    status: z.string(),
    mode: z.string(),
    answer: z.string().nullable(),
    answer_source: z.enum(['template', 'model', 'results', 'summary', 'dry-run']).nullable().describe('How the answer was made: the skill\'s answer template bound to this replay, one counted model call (a value could not be bound), or the last step\'s result (answer_note says why).'),
    answer_note: z.string().nullable(),
    outputs: z.record(z.string(), z.unknown()).describe("The answer's values for this replay by name."),
    llm_calls: z.number().int().nonnegative(),
    cost_usd: z.number().nullable(),
    error: z.object({ name: z.string(), message: z.string(), hint: z.string().optional() }).strict().nullable(),
  })
  .strict();

export const skillDetailSchema = z
  .object({ skill: skillSummarySchema, document: z.record(z.string(), z.unknown()).describe('The portable skill document (what forge skill export writes).') })
  .strict();

export const skillVersionListSchema = z
  .object({
    skill: z.string(),
    current_version: z.number().int().positive(),
    versions: z.array(z.object({ version: z.number().int().positive(), note: z.string(), parent_version: z.number().int().positive().nullable(), created_at: z.string() }).strict()),
  })
  .strict();

export const skillTestSchema = z
  .object({
    skill: z.string(),
    passed: z.boolean(),
    problems: z.array(z.string()),
    recordings: z.array(z.object({ run_id: z.string(), passed: z.boolean(), problems: z.array(z.string()) }).strict()),
  })
  .strict()
  .describe('The skill replayed offline against each of its recordings.');

export const importSkillRequestSchema = z.object({ document: z.record(z.string(), z.unknown()) }).strict();
