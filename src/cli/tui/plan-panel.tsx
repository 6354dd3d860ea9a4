import { Text } from 'ink';
import { Panel, panelContentRows } from './panel.js';
import type { ConvergenceCheck, PlanStep } from './view-state.js';

export interface PlanPanelProps {
  readonly plan: readonly PlanStep[];
  readonly convergence: ConvergenceCheck | null;
  readonly width: number;
  readonly height: number;
}

const stepStyle: Record<PlanStep['status'], { symbol: string; color: string | undefined; dim: boolean }> = {
  pending: { symbol: '○', color: undefined, dim: true },
  in_progress: { symbol: '▶', color: 'yellow', dim: false },
  done: { symbol: '✓', color: 'green', dim: false },
  blocked: { symbol: '✗', color: 'red', dim: false },
};

/**
 * The plan's steps with their status, and below them the convergence gate's last reading: whether the
 * toolbox and the plan held still this turn and how long the stable streak is against its threshold.
 * When steps do not fit, finished steps at the top are folded into one row first.
 */
export function PlanPanel({ plan, convergence, width, height }: PlanPanelProps) {
  const done = plan.filter((step) => step.status === 'done').length;
  const rowsForSteps = panelContentRows(height) - (convergence === null ? 0 : 1);
  const { folded, visible, cut } = fitSteps(plan, rowsForSteps);
  return (
    <Panel title="Plan" summary={plan.length === 0 ? undefined : `${done}/${plan.length} done`} width={width} height={height}>
      {plan.length === 0 ? <Text dimColor>no plan yet</Text> : null}
      {folded > 0 ? <Text color="green" wrap="truncate-end">{`✓ ${folded} earlier steps done`}</Text> : null}
      {visible.map((step) => {
        const style = stepStyle[step.status];
        return (
          <Text key={step.id} color={style.color} dimColor={style.dim} wrap="truncate-end">
            {`${style.symbol} ${step.title}`}
          </Text>
        );
      })}
      {cut > 0 ? <Text dimColor>{`+${cut} more`}</Text> : null}
      {convergence === null ? null : <ConvergenceRow convergence={convergence} />}
    </Panel>
  );
}

function ConvergenceRow({ convergence }: { readonly convergence: ConvergenceCheck }) {
  const reached = convergence.stable_streak >= convergence.threshold;
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{`turn ${convergence.turn}: `}</Text>
      <Text>toolbox </Text>
      <StableMark stable={convergence.toolbox_stable} />
      <Text> plan </Text>
      <StableMark stable={convergence.plan_stable} />
      <Text color={reached ? 'green' : undefined}>{` streak ${convergence.stable_streak}/${convergence.threshold}`}</Text>
    </Text>
  );
}

function StableMark({ stable }: { readonly stable: boolean }) {
  return <Text color={stable ? 'green' : 'red'}>{stable ? '✓' : '✗'}</Text>;
}

function fitSteps(plan: readonly PlanStep[], rows: number): { folded: number; visible: readonly PlanStep[]; cut: number } {
  if (plan.length <= rows) return { folded: 0, visible: plan, cut: 0 };
  let leadingDone = 0;
  while (leadingDone < plan.length && plan[leadingDone]?.status === 'done') leadingDone += 1;
  // Folding n done steps costs one row, so it only helps when it frees at least two.
  const folded = leadingDone >= 2 ? leadingDone : 0;
  const remaining = plan.slice(folded);
  const slots = Math.max(0, rows - (folded > 0 ? 1 : 0));
  if (remaining.length <= slots) return { folded, visible: remaining, cut: 0 };
  const shown = Math.max(0, slots - 1);
  return { folded, visible: remaining.slice(0, shown), cut: remaining.length - shown };
}
