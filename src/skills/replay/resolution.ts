import type { EventOf } from '../../core/index.js';

/** How a value of a replayed step was obtained (cheapest first: user_input, heuristic, llm_rescue, default; text_passthrough for text handed on). */
export type ResolutionStrategy = EventOf<'skill-step'>['resolutions'][number]['strategy'];

/**
 * One resolved value of a replayed step, as the `skill-step` event and `--json` report it: the
 * strategy that settled it, every candidate considered with its score (null where none was computed),
 * and each cheaper strategy that was tried and refused, with why (a rejected rescue answer included).
 */
export interface Resolution {
  readonly name: string;
  readonly strategy: ResolutionStrategy;
  readonly value: unknown;
  readonly candidates: number;
  readonly scores: readonly { readonly value: unknown; readonly score: number | null }[];
  readonly rejections: readonly { readonly strategy: ResolutionStrategy; readonly reason: string; readonly answer?: string }[];
}
