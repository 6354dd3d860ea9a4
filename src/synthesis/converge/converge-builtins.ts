import { z } from 'zod';
import { defineTool, type AnyTool } from '../../core/index.js';
import { toolRequestSchema, type ToolRequest } from '../pipeline/index.js';
import { updatePlanInputSchema, type PlanStep } from './plan.js';

/** The three loop-control tools of convergence mode; everything else the agent calls is a registry tool. */
export const CONVERGE_BUILTIN_NAMES = ['update_plan', 'request_tool', 'final_answer'] as const;

export interface ConvergeBuiltinHandlers {
  updatePlan(steps: PlanStep[]): string;
  requestTool(request: ToolRequest): Promise<string>;
  finalAnswer(answer: string): string;
}

/**
 * The builtins as ordinary tools, so their calls pass dispatch like every other call (validation, policy,
 * events); their effects are the loop's, through `handlers`.
 */
export function createConvergeBuiltins(handlers: ConvergeBuiltinHandlers): AnyTool[] {
  return [
    defineTool({
      name: 'update_plan',
      description: 'Replace the plan with these steps (ids, titles, statuses pending|in_progress|done|blocked). Re-stating the same plan changes nothing.',
      inputSchema: updatePlanInputSchema,
      risk: 'low',
      sideEffect: 'read',
      async execute({ steps }) {
        return handlers.updatePlan(steps);
      },
    }),
    defineTool({
      name: 'request_tool',
      description:
        'When no tool covers a step: ask for a new one by contract. One model writes it, another writes an adversarial test, and it is promoted only if it passes in the sandbox.',
      inputSchema: toolRequestSchema,
      risk: 'medium',
      sideEffect: 'write',
      async execute(request) {
        return handlers.requestTool(request);
      },
    }),
    defineTool({
      name: 'final_answer',
      description: 'Finish the run with the answer to the task.',
      inputSchema: z.object({ answer: z.string().min(1) }),
      risk: 'low',
      sideEffect: 'read',
      async execute({ answer }) {
        return handlers.finalAnswer(answer);
      },
    }),
  ];
}
