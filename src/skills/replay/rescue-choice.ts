import type { UtilityModel } from '../../core/index.js';
import type { Candidate } from './candidates.js';

/** The rescue may say one index and nothing else; a longer answer is already a failure. */
export const RESCUE_MAX_OUTPUT_TOKENS = 16;

export type RescueOutcome =
  | { readonly accepted: true; readonly index: number; readonly answer: string }
  | { readonly accepted: false; readonly reason: string; readonly answer: string };

const system =
  'You pick one value from a numbered list of candidates that a tool returned. Answer with the number of the best candidate and nothing else. Never write a URL, an id or any value yourself.';

/**
 * One small model call that may only choose among real candidates: it is shown the task, what the step
 * needs and the numbered candidates, and must answer with an index. The answer is validated against the
 * candidate set; an index out of range, a value that is not a candidate, or anything else is rejected
 * (the caller falls back and records why). The model is never asked to plan or to produce a value.
 */
export async function rescueChoice(
  model: UtilityModel,
  request: { task: string; tool: string; argument: string; recorded: unknown; candidates: readonly Candidate[]; signal?: AbortSignal },
): Promise<RescueOutcome> {
  const list = request.candidates.map((candidate, index) => `${index}. ${String(candidate.value)}${candidate.context === '' ? '' : ` — ${candidate.context}`}`).join('\n');
  const prompt = `Task: ${request.task}
The next step calls ${request.tool} and needs its "${request.argument}". When this task was recorded, it used: ${String(request.recorded)}
Candidates:
${list}
Answer with the number (0-${request.candidates.length - 1}) of the candidate that best fits the task.`;
  const answer = (await model.complete({ system, prompt, maxOutputTokens: RESCUE_MAX_OUTPUT_TOKENS, purpose: 'skill-rescue', ...(request.signal === undefined ? {} : { signal: request.signal }) })).trim();
  const index = /^\[?(\d+)\]?\.?$/.exec(answer)?.[1];
  if (index !== undefined) {
    const number = Number(index);
    if (number < request.candidates.length) return { accepted: true, index: number, answer };
    return { accepted: false, reason: `index ${number} is not one of the ${request.candidates.length} candidates`, answer };
  }
  const exact = request.candidates.findIndex((candidate) => String(candidate.value) === answer);
  if (exact >= 0) return { accepted: true, index: exact, answer };
  if (/https?:\/\//i.test(answer)) return { accepted: false, reason: 'answered with a URL that is not among the candidates', answer };
  return { accepted: false, reason: 'the answer is not a candidate index', answer };
}
