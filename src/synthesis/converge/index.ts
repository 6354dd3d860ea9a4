export { checkConvergence, type ConvergenceState, type ConvergenceVerdict, type TurnChanges } from './convergence-gate.js';
export { CONVERGE_BUILTIN_NAMES } from './converge-builtins.js';
export { planChanged, planStepSchema, unfinishedSteps, updatePlanInputSchema, type PlanStep } from './plan.js';
export { CONVERGE_SYSTEM_PROMPT, DEFAULT_TURN_CAP, convergeRules, runConverge, type ConvergeRunOptions, type ConvergeRunResult } from './run-converge.js';
