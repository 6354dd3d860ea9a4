import type { EventOf } from '../../core/index.js';

/** How a value of a replayed step was obtained (see `resolutionStrategySchema`). */
export type ResolutionStrategy = EventOf<'skill-step'>['resolutions'][number]['strategy'];

/**
 * One resolved value of a replayed step, as the `skill-step` event and `--json` report it: the
 * strategy that settled it and why, whether it is proven for this replay (only proven values may be
 * sent to a tool that writes), every candidate considered with its score (null where none was
 * computed), and each cheaper strategy that was tried and refused, with why.
 */
export interface Resolution {
  readonly name: string;
  readonly strategy: ResolutionStrategy;
  readonly value: unknown;
  readonly because: string;
  readonly proven: boolean;
  readonly candidates: number;
  readonly scores: readonly { readonly value: unknown; readonly score: number | null }[];
  readonly rejections: readonly { readonly strategy: ResolutionStrategy; readonly reason: string; readonly answer?: string }[];
}
