import type { SkillStep } from '../document/skill-document.js';
import { parseJsonPath, valueAtPath, type JsonPath } from '../json-path.js';
import type { Resolution } from './resolution.js';

/**
 * Why a step that writes may not run in this replay, one line each (empty when it may): an argument
 * that is not proven for this replay (a constant the skill does not pin, the recorded value taken as a
 * last resort, a value from a result that itself rested on such a value), and a state the recording
 * saw before this write (an order `pending`) that the fresh results do not show.
 */
export function writeGateProblems(step: SkillStep, resolutions: readonly Resolution[], results: ReadonlyMap<number, unknown>): string[] {
  const problems = resolutions.filter((resolution) => !resolution.proven).map((resolution) => `${resolution.name} = ${JSON.stringify(resolution.value)} is ${resolution.because}, not proven for this replay`);
  for (const precondition of step.preconditions) {
    const actual = valueAtPath(results.get(precondition.step), parseJsonPath(precondition.path) as JsonPath);
    if (actual !== precondition.equals) problems.push(`step ${precondition.step}'s ${precondition.path} is ${JSON.stringify(actual)} where the recording saw ${JSON.stringify(precondition.equals)}`);
  }
  return problems;
}
