import type { ToolboxEntry } from '../toolbox/index.js';
import type { PlanStep } from './plan.js';

/**
 * The state re-sent after every turn, so the agent always sees the current plan with step statuses and
 * which tools exist (and which failed, so it does not ask for them again unchanged).
 */
export function renderStateBlock(options: { turn: number; cap: number; plan: readonly PlanStep[]; tools: readonly ToolboxEntry[] }): string {
  const plan = options.plan.length === 0 ? ['  (no plan yet: call update_plan)'] : options.plan.map((step) => `  - [${step.status}] ${step.id}: ${step.title}`);
  const promoted = options.tools.filter((tool) => tool.status === 'promoted').map((tool) => tool.name);
  const failed = options.tools.filter((tool) => tool.status === 'failed').map((tool) => tool.name);
  return [
    `<forge-state turn="${options.turn}" cap="${options.cap}">`,
    'plan:',
    ...plan,
    `promoted tools: ${promoted.join(', ') || '(none)'}`,
    ...(failed.length === 0 ? [] : [`failed tools (not callable): ${failed.join(', ')}`]),
    '</forge-state>',
    'Call exactly one tool: update_plan, request_tool, an existing tool, or final_answer.',
  ].join('\n');
}
