import { Box, Text } from 'ink';
import type { EventOf } from '../../core/index.js';
import { formatCostSum, formatCount, formatDuration, formatErrorInfo, formatQuantity } from '../event-line/index.js';
import { ProgressIndicator } from './progress-indicator.js';
import type { ModelCallInFlight, ViewTotals } from './view-state.js';

export interface TotalsFooterProps {
  readonly totals: ViewTotals;
  readonly startedAtMs: number | null;
  readonly modelCallsInFlight: readonly ModelCallInFlight[];
  readonly end: EventOf<'run-end'> | null;
  readonly now: number;
  readonly width: number;
}

/** At most this many in-flight calls get a spinner row each; more are summarized on the last one. */
const inFlightRowLimit = 2;

/** Rows the footer takes for a given state, so the layout can give the rest to the panels. */
export function totalsFooterRows(modelCallsInFlight: readonly ModelCallInFlight[], end: EventOf<'run-end'> | null): number {
  return 1 + Math.min(modelCallsInFlight.length, inFlightRowLimit) + (end === null ? 0 : 1);
}

/**
 * Running totals (model calls, tokens, dollars, elapsed time), a spinner per model call in flight, and
 * once the run ended, how it ended. A halt by the turn cap is flagged loudly: it means the run did not
 * finish on its own.
 */
export function TotalsFooter({ totals, startedAtMs, modelCallsInFlight, end, now, width }: TotalsFooterProps) {
  const elapsed = elapsedMs(startedAtMs, end, now);
  const failed = totals.failedModelCalls > 0 ? ` (${totals.failedModelCalls} failed)` : '';
  const cost = formatCostSum({ costUsd: totals.unpricedCalls > 0 ? null : totals.costUsd, pricedCostUsd: totals.costUsd, unpricedCalls: totals.unpricedCalls });
  const shownInFlight = modelCallsInFlight.slice(0, inFlightRowLimit);
  const extraInFlight = modelCallsInFlight.length - shownInFlight.length;
  const tokens = `${formatCount(totals.inputTokens)} in / ${formatCount(totals.outputTokens)} out`;
  const full = `model calls ${formatCount(totals.modelCalls)}${failed} · tokens ${tokens} · ${totals.unpricedCalls > 0 ? cost : `cost ${cost}`} · elapsed ${formatDuration(elapsed)}`;
  // Too narrow for the labels: the same figures in the same order, with short units instead.
  const compact = `${formatQuantity(totals.modelCalls, 'call')}${failed} · ${formatCount(totals.inputTokens)}/${formatCount(totals.outputTokens)} tok · ${cost} · ${formatDuration(elapsed)}`;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {full.length <= width ? full : compact}
      </Text>
      {shownInFlight.map((call, index) => (
        <ProgressIndicator
          key={index}
          label={`${call.model} iteration ${call.iteration} thinking${index === shownInFlight.length - 1 && extraInFlight > 0 ? ` (+${extraInFlight} more calls)` : ''}`}
          startedAtMs={call.startedAtMs}
          now={now}
        />
      ))}
      {end === null ? null : <RunOutcome end={end} />}
    </Box>
  );
}

function RunOutcome({ end }: { readonly end: EventOf<'run-end'> }) {
  if (end.halt_reason === 'cap') {
    return <Text color="yellow" bold wrap="truncate-end">{`⚠ ${end.status}: halted by the turn cap, not by an answer or convergence`}</Text>;
  }
  if (end.status === 'completed') {
    return <Text color="green" bold wrap="truncate-end">{`✓ completed (${end.halt_reason})`}</Text>;
  }
  const reason = end.error === null ? '' : `: ${formatErrorInfo(end.error)}`;
  return <Text color={end.status === 'cancelled' ? 'yellow' : 'red'} bold wrap="truncate-end">{`✗ ${end.status} (${end.halt_reason})${reason}`}</Text>;
}

// A finished run shows its own measured duration; a running one, time since its first event.
function elapsedMs(startedAtMs: number | null, end: EventOf<'run-end'> | null, now: number): number {
  if (end !== null) return end.duration_ms;
  return startedAtMs === null ? 0 : now - startedAtMs;
}
