import type { WriteStep } from './sql-access.js';

/** How a step failed its unit: it changed no row where it had to, or the database refused it. */
export type StepOutcome = { readonly unchanged: true } | { readonly unchanged: false; readonly error: unknown };

/**
 * The error a write unit's caller gets when `step` failed it (the unit is rolled back by then): the
 * step's own error for changing nothing (`ifUnchanged`) or for the database's refusal (`onError`, e.g.
 * a taken key as `DuplicateRecordError`), else the refusal itself. Every engine reports failures so.
 */
export function stepFailure(step: WriteStep, outcome: StepOutcome): unknown {
  if (outcome.unchanged) return step.ifUnchanged?.() ?? new Error('A write changed no row.');
  return step.onError?.(outcome.error) ?? outcome.error;
}
