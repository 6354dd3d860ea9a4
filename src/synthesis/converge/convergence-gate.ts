/** What one turn did, as the halt rule sees it. */
export interface TurnChanges {
  /** Any synthesis ran, even one that failed. */
  readonly toolboxChanged: boolean;
  /** The plan was really edited (not re-stated). */
  readonly planMutated: boolean;
  /** A promoted or other domain tool was called. */
  readonly toolUsed: boolean;
}

export interface ConvergenceState {
  readonly stableStreak: number;
}

export interface ConvergenceVerdict {
  readonly stable: boolean;
  readonly stableStreak: number;
  readonly threshold: number;
  readonly converged: boolean;
}

/**
 * The halt rule, exactly: a turn is stable when it changed neither the toolbox nor the plan and called no
 * domain tool; `stableStreak` counts consecutive stable turns; the run has converged when `turn >= 2` and
 * the streak reaches `max(1, unfinished plan steps)`, so a plan with work left needs that many idle turns.
 */
export function checkConvergence(state: ConvergenceState, turn: number, changes: TurnChanges, unfinishedSteps: number): ConvergenceVerdict {
  const stable = !(changes.toolboxChanged || changes.planMutated || changes.toolUsed);
  const stableStreak = stable ? state.stableStreak + 1 : 0;
  const threshold = Math.max(1, unfinishedSteps);
  return { stable, stableStreak, threshold, converged: turn >= 2 && stableStreak >= threshold };
}
