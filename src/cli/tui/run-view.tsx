import { Box, Text } from 'ink';
import { terminalText } from '../terminal-text.js';
import { EventStreamPanel } from './event-stream-panel.js';
import { PlanPanel } from './plan-panel.js';
import { planRunViewLayout } from './run-view-layout.js';
import { ToolboxPanel } from './toolbox-panel.js';
import { TotalsFooter, totalsFooterRows } from './totals-footer.js';
import type { ViewState } from './view-state.js';

/** A one-row message under the footer: the replay's controls and position, a run log error. */
export interface Notice {
  readonly text: string;
  readonly tone: 'info' | 'error';
}

export interface RunViewProps {
  readonly state: ViewState;
  /** The current time in the view's clock; drives elapsed time and spinners only. */
  readonly now: number;
  readonly width: number;
  readonly height: number;
  readonly notices?: readonly Notice[];
  /** Entries of the Event stream scrolled past at the bottom: 0 (the default) follows the newest. */
  readonly scrolledBack?: number;
  /** The command prints the answer in full right under the view, so the view only points to it. */
  readonly answerPrintedBelow?: boolean;
}

const headerRows = 1;

/**
 * The whole screen for one run: header, Toolbox and Plan (only for a run with a plan), Event stream, totals footer and notices,
 * exactly `width` × `height`. A pure function of its props, so the live view, the replay viewer and the
 * tests all draw the same thing from the same state.
 */
export function RunView({ state, now, width, height, notices = [], scrolledBack = 0, answerPrintedBelow = false }: RunViewProps) {
  const fixedRows = headerRows + totalsFooterRows(state.modelCallsInFlight, state.end) + notices.length;
  const hasPlan = state.plan.length > 0 || state.convergence !== null;
  const layout = planRunViewLayout({
    width,
    height: Math.max(0, height - fixedRows),
    toolboxContentRows: 1 + Math.max(1, state.toolbox.length),
    planContentRows: hasPlan ? Math.max(1, state.plan.length) + (state.convergence === null ? 0 : 1) : 0,
  });
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <RunHeader state={state} />
      <Box flexDirection={layout.arrangement === 'side-by-side' ? 'row' : 'column'}>
        <ToolboxPanel toolbox={state.toolbox} width={layout.toolbox.width} height={layout.toolbox.height} />
        {hasPlan ? <PlanPanel plan={state.plan} convergence={state.convergence} width={layout.plan.width} height={layout.plan.height} /> : null}
      </Box>
      <EventStreamPanel
        stream={state.stream}
        eventCount={state.eventCount}
        startedAtMs={state.startedAtMs}
        draft={state.draft}
        end={state.end}
        scrolledBack={scrolledBack}
        answerPrintedBelow={answerPrintedBelow}
        width={layout.stream.width}
        height={layout.stream.height}
      />
      <TotalsFooter totals={state.totals} startedAtMs={state.startedAtMs} modelCallsInFlight={state.modelCallsInFlight} end={state.end} now={now} width={width} />
      {notices.map((notice, index) => (
        <Text key={index} color={notice.tone === 'error' ? 'red' : undefined} dimColor={notice.tone === 'info'} bold={notice.tone === 'error'} wrap="truncate-end">
          {terminalText(notice.text)}
        </Text>
      ))}
    </Box>
  );
}

function RunHeader({ state }: { readonly state: ViewState }) {
  if (state.runId === null) {
    return <Text bold>forge <Text dimColor>waiting for the run to start…</Text></Text>;
  }
  return (
    <Text wrap="truncate-end">
      <Text bold>forge </Text>
      <Text color="cyan">{state.runId}</Text>
      <Text dimColor>{` · ${state.model ?? ''} · `}</Text>
      <Text>{state.task ?? ''}</Text>
    </Text>
  );
}
