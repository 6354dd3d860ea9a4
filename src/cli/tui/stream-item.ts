import type { EventOf, ForgeEvent } from '../../core/index.js';
import { readableOutput } from '../../security/index.js';
import { describeEvent, formatCost, formatCount, formatDuration, formatErrorInfo, formatResolution } from '../event-line/index.js';
import type { StyledRow, StyledSegment } from './styled-row.js';
import type { TextDraft } from './view-state.js';
import { toolStatusStyle } from './tool-status-style.js';
import { limitRows, wrapText } from './wrap-text.js';

/**
 * One event as the Event stream panel draws it: a headline row, maybe some detail rows, and for a failed
 * verification a red frame around everything. Rows are pre-wrapped to the panel width, so `height` is
 * exact and the panel can decide which entries fit before drawing anything.
 */
export interface StreamItem {
  readonly key: string;
  readonly rows: readonly StyledRow[];
  /** Set when the rows are drawn inside a bordered frame of this colour; the frame adds two rows. */
  readonly frameColor?: string;
  readonly height: number;
}

export interface StreamItemContext {
  /** When the run started, so each entry can show its offset (`+12.3s`); null before `run-start`. */
  readonly startedAtMs: number | null;
  /** Columns the panel offers for content. */
  readonly width: number;
  /** Where the ended run's answer is shown, so it is shown once; absent while the run goes on or when it has no answer. */
  readonly answer?: AnswerPlacement;
}

/**
 * Where the answer appears, once: in the `assistant-text` entry it came from (`entryKey`), else in the
 * `run-end` entry (an answer no model wrote, e.g. a skill replay's). When the command prints it in full
 * right under the view's last frame (`printedBelow`), the view only says so.
 */
export interface AnswerPlacement {
  readonly entryKey: string | null;
  readonly printedBelow: boolean;
}

/** Errors and sandbox output are shown as fully as a screen reasonably allows; prose is a glimpse. */
const errorRowLimit = 6;
const sandboxOutputRowLimit = 12;
const proseRowLimit = 3;
/** The answer is what the run was for: it gets room to be read. */
const answerRowLimit = 12;
/** Streaming text shows its newest rows, where the model is writing. */
const draftRowLimit = 6;
/** A resolved value is often a URL; it is the evidence that the value came from reality, so it wraps rather than being cut. */
const resolutionRowLimit = 3;
const labelWidth = 8;
const offsetWidth = 7;
/** Below this width, detail rows are indented a little instead of aligned under the headline, to keep room for text. */
const alignedDetailsMinimumWidth = 70;

const strategyColor: Record<EventOf<'skill-step'>['resolutions'][number]['strategy'], string> = {
  user_input: 'green',
  heuristic: 'cyan',
  llm_rescue: 'magenta',
  text_passthrough: 'blue',
  default: 'yellow',
  constant: 'gray',
};

const policyColor: Record<EventOf<'policy-decision'>['decision'], string> = {
  allow: 'gray',
  require_approval: 'yellow',
  block: 'red',
};

/** Builds the stream entry for `event`. */
export function streamItemFromEvent(event: ForgeEvent, context: StreamItemContext): StreamItem {
  const key = streamItemKey(event);
  const offset = formatOffset(event, context.startedAtMs).padStart(offsetWidth);
  const prefix: StyledSegment[] = [{ text: `${offset} `, dim: true }];
  const headlineWidth = Math.max(8, context.width - offsetWidth - 1 - labelWidth - 1);
  const indent = ' '.repeat(context.width >= alignedDetailsMinimumWidth ? offsetWidth + 1 + labelWidth + 1 : 4);
  const detailWidth = Math.max(8, context.width - indent.length);
  const labelled = (label: string, color: string | undefined, headline: string, rowLimit = 1): StyledRow[] => {
    const [first = '', ...rest] = rowLimit === 1 ? [headline] : limitRows(wrapText(headline, headlineWidth), rowLimit);
    const labelSegment: StyledSegment = { text: `${label.padEnd(labelWidth)} `, color, bold: true };
    return [
      [...prefix, labelSegment, { text: first, color: rowLimit === 1 ? undefined : color }],
      ...rest.map((row): StyledRow => [{ text: `${indent}${row}`, color }]),
    ];
  };
  const details = (text: string, limit: number, color?: string): StyledRow[] =>
    limitRows(wrapText(text, detailWidth), limit).map((row): StyledRow => [{ text: `${indent}${row}`, color }]);

  switch (event.type) {
    case 'model-call-start':
      return item(key, labelled('model', 'gray', `${event.model} iteration ${event.iteration} started`));
    case 'model-call':
      return item(key, labelled('model', 'magenta', describeModelCall(event)));
    case 'model-error':
      return item(key, labelled('model', 'red', describeEvent(event), errorRowLimit));
    case 'assistant-text': {
      const answer = context.answer;
      if (answer?.entryKey === key && answer.printedBelow) return item(key, labelled('answer', 'green', `${describeEvent(event)} · printed in full below`));
      if (answer?.entryKey === key) return item(key, [...labelled('answer', 'green', describeEvent(event)), ...details(event.text, answerRowLimit)]);
      return item(key, [...labelled('text', 'white', describeEvent(event)), ...details(event.text, proseRowLimit)]);
    }
    case 'tool-log':
      return item(key, [...labelled('log', 'gray', describeEvent(event)), ...details(event.lines.join('\n'), sandboxOutputRowLimit, 'gray')]);
    case 'tool-call-start':
      return item(key, labelled('call', 'cyan', describeEvent(event)));
    case 'policy-decision':
      return item(key, labelled('policy', policyColor[event.decision], describeEvent(event)));
    case 'tool-result':
      return item(key, labelled('result', 'green', describeEvent(event)));
    case 'tool-error':
      return item(key, labelled('error', 'red', describeEvent(event), errorRowLimit));
    case 'toolbox-change':
      return item(key, labelled('toolbox', toolStatusStyle[event.status].color, describeEvent(event)));
    case 'verification-failed':
      return framedItem(key, 'red', [
        [{ text: `✗ verification failed: ${event.tool} (revision ${event.revision})`, color: 'red', bold: true }],
        ...limitRows(wrapText(event.output, context.width - 4), sandboxOutputRowLimit).map((row): StyledRow => [{ text: row, color: 'red' }]),
      ]);
    case 'synthesis-end':
      return item(key, labelled('toolbox', event.flagged ? 'red' : toolStatusStyle[event.status].color, describeEvent(event), event.flagged ? errorRowLimit : 1));
    case 'convergence-check':
      return item(key, labelled('converge', 'cyan', describeConvergence(event)));
    case 'skill-step':
      return item(key, [
        ...labelled('skill', 'magenta', describeEvent(event)),
        ...event.resolutions.flatMap((resolution) => details(formatResolution(resolution), resolutionRowLimit, strategyColor[resolution.strategy])),
      ]);
    case 'skill-match':
      return item(key, labelled('skill', event.decision === 'replay' ? 'green' : 'yellow', describeEvent(event)));
    case 'skill-stale':
      return item(key, labelled('skill', 'red', describeEvent(event), errorRowLimit));
    case 'run-end': {
      const color = event.status === 'completed' ? 'green' : event.status === 'cancelled' ? 'yellow' : 'red';
      return item(key, [
        ...labelled('end', color, describeEvent(event)),
        ...(event.error === null ? [] : details(formatErrorInfo(event.error), errorRowLimit, 'red')),
        ...(event.answer === null || context.answer === undefined || context.answer.entryKey !== null || context.answer.printedBelow ? [] : details(readableOutput(event.answer), answerRowLimit)),
      ]);
    }
    case 'run-start':
    case 'run-resume':
      return item(key, labelled('run', 'cyan', describeEvent(event)));
    case 'run-pause':
    case 'approval-request':
      return item(key, labelled('approval', 'yellow', describeEvent(event), errorRowLimit));
    case 'approval-answer':
      return item(key, labelled('approval', event.decision === 'approved' ? 'green' : 'red', describeEvent(event)));
    case 'plan-update':
      return item(key, labelled('plan', 'cyan', describeEvent(event)));
  }
}

/** The key of an event's entry: unique within a run's stream. */
export function streamItemKey(event: ForgeEvent): string {
  return `${event.run_id}:${event.seq}`;
}

/** The model's text as it streams in: its newest rows, under a headline that says it is still coming. */
export function streamItemFromDraft(draft: TextDraft, context: StreamItemContext): StreamItem {
  const indent = ' '.repeat(context.width >= alignedDetailsMinimumWidth ? offsetWidth + 1 + labelWidth + 1 : 4);
  const rows = wrapText(`${draft.text}▍`, Math.max(8, context.width - indent.length));
  const shown = rows.slice(-draftRowLimit);
  return item('draft', [
    [{ text: `${''.padStart(offsetWidth)} `, dim: true }, { text: `${'text'.padEnd(labelWidth)} `, color: 'white', bold: true }, { text: `iteration ${draft.iteration}, streaming…`, dim: true }],
    ...shown.map((row): StyledRow => [{ text: `${indent}${row}` }]),
  ]);
}

/**
 * `item` cut to `rows` rows when it is taller, keeping its headline and its frame whole: the last row
 * kept says how many more there are, so a tall failure is shortened visibly rather than cropped.
 */
export function fitStreamItem(shown: StreamItem, rows: number): StreamItem {
  if (shown.height <= rows) return shown;
  const border = shown.frameColor === undefined ? 0 : 2;
  const kept = shown.rows.slice(0, Math.max(1, rows - border - 1));
  const marker: StyledRow = [{ text: `… ${shown.rows.length - kept.length} more lines in the run log`, dim: true, color: shown.frameColor }];
  const fitted = rows - border > 1 ? [...kept, marker] : kept;
  return { ...shown, rows: fitted, height: fitted.length + border };
}

/** A framed entry that does not fit at the top of the stream: its headline alone, unframed, saying how to see it whole. */
export function collapseStreamItem(shown: StreamItem): StreamItem {
  const [headline = []] = shown.rows;
  return item(shown.key, [[...headline, { text: ' · ↑ to see it whole', dim: true }]]);
}

// Numbers first: at 80 columns the tail of a row is what gets cut, and the cost matters more than the slug.
function describeModelCall(event: EventOf<'model-call'>): string {
  const cost = event.cost_usd === null ? 'cost ?' : formatCost(event.cost_usd);
  return `${formatCount(event.tokens.input)}→${formatCount(event.tokens.output)} tok · ${cost} · ${formatDuration(event.latency_ms)} · ${event.model} ${event.purpose}`;
}

function describeConvergence(event: EventOf<'convergence-check'>): string {
  const mark = (stable: boolean) => (stable ? '✓' : '✗');
  return `turn ${event.turn} · toolbox ${mark(event.toolbox_stable)} · plan ${mark(event.plan_stable)} · streak ${event.stable_streak}/${event.threshold}`;
}

function formatOffset(event: ForgeEvent, startedAtMs: number | null): string {
  const at = Date.parse(event.ts);
  if (startedAtMs === null || Number.isNaN(at)) return '';
  return `+${formatDuration(at - startedAtMs)}`;
}

function item(key: string, rows: readonly StyledRow[]): StreamItem {
  return { key, rows, height: rows.length };
}

function framedItem(key: string, frameColor: string, rows: readonly StyledRow[]): StreamItem {
  return { key, rows, frameColor, height: rows.length + 2 };
}
