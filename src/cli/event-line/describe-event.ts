import type { ErrorInfo, EventOf, ForgeEvent } from '../../core/index.js';
import { formatCompactJson, formatCost, formatCostSum, formatCount, formatDuration, formatQuantity, formatSize } from './format-values.js';

type SkillResolution = EventOf<'skill-step'>['resolutions'][number];

/** How much of a tool input or argument a one-line description shows. */
const inputPreviewLimit = 160;
const valuePreviewLimit = 80;

/**
 * The headline of an event: one line saying what happened, without its timestamp or type, worded so it
 * reads the same in a terminal, a CI log and a grep. Errors are given in full; bulky payloads
 * (assistant text, sandbox output, a skill step's resolutions, a run's answer) are left to the caller,
 * which knows whether it has room for them: the plain trace appends them inline, the live view gives
 * them rows of their own.
 */
export function describeEvent(event: ForgeEvent): string {
  switch (event.type) {
    case 'run-start':
      return `${event.run_id} model=${event.model} max_iterations=${event.max_iterations} tools=${event.tools.join(',') || '(none)'} task=${JSON.stringify(event.task)}`;
    case 'run-resume':
      return `${event.run_id} resumed after turn ${event.turn}${event.pending.length === 0 ? '' : `, owing ${formatQuantity(event.pending.length, 'call')}: ${event.pending.join(', ')}`}`;
    case 'run-pause':
      return `waiting for approval of ${event.waiting_on.join(', ')} — answer with: forge approvals approve ${event.run_id} <call-id> (or deny … --reason "…")`;
    case 'approval-request':
      return `${event.tool} needs approval: ${event.reason} (${event.call_id}, input ${event.input_digest.slice(0, 12)}${event.expires_at === null ? '' : `, expires ${event.expires_at}`})`;
    case 'approval-answer':
      return `${event.call_id} ${event.decision}${event.reason === null ? '' : `: ${event.reason}`}`;
    case 'model-call-start':
      return `${event.model} iteration ${event.iteration}`;
    case 'model-call':
      return [
        `${event.model} iteration ${event.iteration} ${event.purpose}: ${formatCount(event.tokens.input)} in / ${formatCount(event.tokens.output)} out tokens`,
        event.cost_usd === null ? 'cost unknown' : formatCost(event.cost_usd),
        formatDuration(event.latency_ms),
        `finish ${event.finish_reason}`,
        formatQuantity(event.tool_calls, 'tool call'),
      ].join(', ');
    case 'model-error': {
      const status = event.status_code === null ? '' : ` (HTTP ${event.status_code})`;
      return `${event.model} iteration ${event.iteration} failed after ${formatDuration(event.latency_ms)}${status}: ${formatErrorInfo(event.error)}`;
    }
    case 'assistant-text':
      return `iteration ${event.iteration}, ${formatQuantity(event.text.length, 'char')}`;
    case 'tool-call-start':
      return `${event.tool} ${formatCompactJson(event.input, inputPreviewLimit)} (${event.call_id})`;
    case 'policy-decision':
      return `${event.tool} ${event.decision}: ${event.reason} (${event.call_id})`;
    case 'tool-result': {
      const flags = [event.truncated ? 'truncated' : '', event.untrusted ? 'untrusted' : ''].filter((flag) => flag !== '');
      const suffix = flags.length === 0 ? '' : `, ${flags.join(', ')}`;
      const cached = event.cached === true ? ' (cached)' : '';
      return `${event.tool} -> ${formatSize(event.output.length)}${cached} in ${formatDuration(event.duration_ms)}${suffix} (${event.call_id})`;
    }
    case 'tool-log':
      return `${event.tool} logged ${formatQuantity(event.lines.length, 'line')} (${event.call_id})`;
    case 'tool-error':
      return `${event.tool} failed after ${formatDuration(event.duration_ms)}: ${formatErrorInfo(event.error)} (${event.call_id})`;
    case 'plan-update': {
      const done = event.steps.filter((step) => step.status === 'done').length;
      const steps = event.steps.map((step) => `${planStepMarker[step.status]} ${step.title}`).join(', ');
      return `${done}/${event.steps.length} done: ${steps || '(empty plan)'}`;
    }
    case 'toolbox-change':
      return `${event.tool} -> ${event.status} (revisions ${event.revisions}, uses ${event.uses})`;
    case 'verification-failed':
      return `${event.tool} revision ${event.revision} failed its test in the sandbox`;
    case 'synthesis-end': {
      const cost = endingCost(event);
      const flag = event.flagged ? ' — FLAGGED: used up its revisions' : '';
      return `${event.tool} ${event.status} after ${formatQuantity(event.revisions, 'revision')}: ${formatQuantity(event.llm_calls, 'model call')}, ${cost}${flag}`;
    }
    case 'convergence-check':
      return `turn ${event.turn}: toolbox stable ${yesNo(event.toolbox_stable)}, plan stable ${yesNo(event.plan_stable)}, streak ${event.stable_streak}/${event.threshold}`;
    case 'skill-step':
      return `${event.skill} step ${event.step} -> ${event.tool} ${formatCompactJson(event.arguments, inputPreviewLimit)}`;
    case 'skill-match':
      return `${event.decision}${event.skill === null ? '' : ` ${event.skill}`}: ${event.reason}`;
    case 'skill-stale':
      return `${event.skill} is stale: ${event.reason}`;
    case 'run-end': {
      const cost = endingCost(event);
      const warnings = (event.warnings ?? []).map((warning) => ` — WARNING: ${warning}`).join('');
      return `${event.status} (${event.halt_reason}) after ${formatDuration(event.duration_ms)}: ${formatQuantity(event.llm_calls, 'model call')}, ${formatCount(event.tokens.input)} in / ${formatCount(event.tokens.output)} out tokens, ${cost}${warnings}`;
    }
  }
}

/** The cost an ending event records, with its known part; a log written before that part was recorded says only that it is unknown. */
function endingCost(event: EventOf<'run-end' | 'synthesis-end'>): string {
  if (event.cost_usd === null && (event.cost_usd_known === undefined || event.unpriced_calls === undefined)) return 'cost unknown';
  return formatCostSum({ costUsd: event.cost_usd, pricedCostUsd: event.cost_usd_known ?? 0, unpricedCalls: event.unpriced_calls ?? 0 });
}

/** `Name: message (hint: ...)`, complete: an error is never shortened. */
export function formatErrorInfo(error: ErrorInfo): string {
  const hint = error.hint === undefined ? '' : ` (hint: ${error.hint})`;
  return `${error.name}: ${error.message}${hint}`;
}

/**
 * `url <- heuristic, 8 candidates: "https://..."`: which strategy resolved a skill value, and to what,
 * followed by any cheaper strategy that was tried and refused, with its reason.
 */
export function formatResolution(resolution: SkillResolution): string {
  const candidates = resolution.candidates === undefined ? '' : `, ${formatQuantity(resolution.candidates, 'candidate')}`;
  const refused = (resolution.rejections ?? []).map((rejection) => ` (${rejection.strategy} refused: ${rejection.reason})`).join('');
  return `${resolution.name} <- ${resolution.strategy}${candidates}: ${formatCompactJson(resolution.value, valuePreviewLimit)}${resolution.proven === false ? ' (not proven)' : ''}${refused}`;
}

const planStepMarker: Record<EventOf<'plan-update'>['steps'][number]['status'], string> = {
  pending: '[ ]',
  in_progress: '[>]',
  done: '[x]',
  blocked: '[!]',
};

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}
