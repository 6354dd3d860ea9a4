import { z } from 'zod';
import { skillDocumentSchema } from '../../skills/index.js';
import { anyJsonSchema } from './common-schemas.js';

const writeConstantsSchema = z.array(z.object({ name: z.string(), value: anyJsonSchema })).describe('write arguments that are constants from the recording: a replay refuses before that write until each is pinned');

/** A stored skill version: the whole skill document, its version and the constants it would write. */
export const savedSkillOutputSchema = skillDocumentSchema.extend({ skill_version: z.number().int().positive(), write_constants: writeConstantsSchema });

export const skillShowOutputSchema = savedSkillOutputSchema.extend({
  status: z.enum(['active', 'stale']),
  stale_reason: z.string().nullable(),
  current_version: z.number().int().positive(),
});

export const skillListOutputSchema = z.object({
  skills: z.array(z.object({ id: z.string(), name: z.string(), version: z.number().int().positive(), status: z.enum(['active', 'stale']), stale_reason: z.string().nullable(), problem: z.string().nullable().describe('why a stored skill no longer reads; null when it reads'), description: z.string(), updated_at: z.string() })),
});

const testStepSchema = z.object({ index: z.number().int().nonnegative(), tool: z.string(), expected: anyJsonSchema, actual: anyJsonSchema, matches: z.boolean(), strategies: z.array(z.string()) });

export const skillTestOutputSchema = z.object({
  skill: z.string(),
  passed: z.boolean(),
  problems: z.array(z.string()),
  steps: z.array(testStepSchema),
  recordings: z.array(z.object({ run_id: z.string(), passed: z.boolean(), problems: z.array(z.string()), steps: z.array(testStepSchema) })),
});

export const skillVersionsOutputSchema = z.object({
  skill: z.string(),
  current_version: z.number().int().positive(),
  versions: z.array(z.object({ version: z.number().int().positive(), note: z.string(), parent_version: z.number().int().positive().nullable(), created_at: z.string() })),
});
