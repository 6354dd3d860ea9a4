import { canonicalJson } from '../../../src/skills/index.js';
import type { GroundTruthRun } from './ground-truth.js';

/**
 * How a replay ended, judged by the database it left (τ-bench's hash against the ground truth's):
 * `correct` (the same database), `wrong-write` (it made a write the ground truth does not make: wrong
 * data, the failure that matters most), `safe-refusal` (it refused and wrote nothing wrong), or
 * `incomplete` (it stopped or failed otherwise, every write it made being one the ground truth makes).
 */
export type ReplayVerdict = 'correct' | 'wrong-write' | 'safe-refusal' | 'incomplete';

export function classifyReplay(outcome: { readonly hash: string; readonly status: string; readonly writes: readonly { readonly tool: string; readonly arguments: unknown }[] }, truth: GroundTruthRun): { verdict: ReplayVerdict; wrongWrites: { tool: string; arguments: unknown }[] } {
  if (outcome.hash === truth.hash) return { verdict: 'correct', wrongWrites: [] };
  const allowed = new Set(truth.writes.map((write) => canonicalJson(write)));
  const wrongWrites = outcome.writes.filter((write) => !allowed.has(canonicalJson({ tool: write.tool, arguments: write.arguments }))).map((write) => ({ tool: write.tool, arguments: write.arguments }));
  if (wrongWrites.length > 0) return { verdict: 'wrong-write', wrongWrites };
  return { verdict: outcome.status === 'refused' ? 'safe-refusal' : 'incomplete', wrongWrites: [] };
}
