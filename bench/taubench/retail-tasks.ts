import { readFileSync } from 'node:fs';
import { z } from 'zod';

const retailActionSchema = z.object({ name: z.string(), kwargs: z.record(z.string(), z.unknown()) });

const retailTaskSchema = z.object({
  index: z.number().int().nonnegative(),
  annotator: z.string(),
  user_id: z.string(),
  instruction: z.string(),
  actions: z.array(retailActionSchema),
  outputs: z.array(z.string()),
});

const retailTaskFileSchema = z
  .object({ source: z.string(), count: z.number().int(), tasks: z.array(retailTaskSchema) })
  .refine((file) => file.count === file.tasks.length, { message: 'count does not match the number of tasks' });

/** A ground-truth tool call of a task. */
export type RetailAction = z.infer<typeof retailActionSchema>;

/**
 * A τ-bench retail test task: the simulated user's `instruction`, the ground-truth `actions` whose
 * result state a run must reproduce (compared by data hash), and the `outputs` its answer must contain.
 */
export type RetailTask = z.infer<typeof retailTaskSchema>;

/** Tasks that share one ground-truth tool-name sequence. */
export interface RetailTaskGroup {
  readonly sequence: readonly string[];
  readonly tasks: readonly RetailTask[];
}

/** The 115 retail test tasks (`data/retail/tasks_test.json`), validated, in index order; a fresh copy every call. */
export function loadRetailTasks(): RetailTask[] {
  const file = retailTaskFileSchema.parse(JSON.parse(readFileSync(new URL('./data/retail/tasks_test.json', import.meta.url), 'utf8')));
  return file.tasks;
}

/**
 * Groups tasks by their exact sequence of ground-truth tool names, groups and the tasks in each in
 * order of first appearance; tasks without actions form a group of their own (the empty sequence).
 */
export function groupTasksBySequence(tasks: readonly RetailTask[]): RetailTaskGroup[] {
  const groups = new Map<string, { sequence: string[]; tasks: RetailTask[] }>();
  for (const task of tasks) {
    const sequence = task.actions.map((action) => action.name);
    const key = JSON.stringify(sequence);
    const group = groups.get(key) ?? { sequence, tasks: [] };
    group.tasks.push(task);
    groups.set(key, group);
  }
  return [...groups.values()];
}
