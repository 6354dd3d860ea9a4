import { z } from 'zod';
import { planStepStatusSchema } from '../../core/index.js';

export const planStepSchema = z.object({
  id: z.string().trim().min(1).max(64).describe('a short stable id, e.g. s1'),
  title: z.string().trim().min(1).max(300),
  status: planStepStatusSchema,
});

export type PlanStep = z.infer<typeof planStepSchema>;

/** `update_plan`'s input: the whole plan as it should stand now (it replaces the previous one). */
export const updatePlanInputSchema = z.object({ steps: z.array(planStepSchema).max(50) });

/** True when `next` really edits `previous`: a step added, removed, renamed, reordered or moved to another status. */
export function planChanged(previous: readonly PlanStep[], next: readonly PlanStep[]): boolean {
  if (previous.length !== next.length) return true;
  return previous.some((step, index) => {
    const other = next[index]!;
    return step.id !== other.id || step.title !== other.title || step.status !== other.status;
  });
}

export function unfinishedSteps(plan: readonly PlanStep[]): number {
  return plan.filter((step) => step.status !== 'done').length;
}
