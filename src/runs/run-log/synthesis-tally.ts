import type { EventOf, ForgeEvent } from '../../core/index.js';
import type { UsageTotals } from './usage-totals.js';

/** One synthesized tool's story in a run: how it ended and what it cost. */
export interface SynthesisTotals extends UsageTotals {
  readonly status: 'promoted' | 'failed';
  readonly revisions: number;
  /** Verifications it failed before it was promoted or given up. */
  readonly verification_failures: number;
}

/** The only events a run's synthesis figures come from; a store can be asked for exactly these. */
export const SYNTHESIS_EVENT_TYPES = ['verification-failed', 'synthesis-end'] as const;

export type SynthesisEvent = EventOf<(typeof SYNTHESIS_EVENT_TYPES)[number]>;

/**
 * Adds up one run's syntheses from its `verification-failed` and `synthesis-end` events, fed in seq
 * order (other events are ignored). A tool synthesized twice in the run keeps its last outcome and
 * every verification it failed until then.
 */
export class SynthesisTally {
  // Keyed by tool names, which data chooses (`__proto__` is a valid tool name): no prototype.
  private readonly failures = Object.create(null) as Record<string, number>;
  private readonly byTool = Object.create(null) as Record<string, SynthesisTotals>;

  add(event: ForgeEvent): void {
    if (event.type === 'verification-failed') {
      this.failures[event.tool] = (this.failures[event.tool] ?? 0) + 1;
    } else if (event.type === 'synthesis-end') {
      this.byTool[event.tool] = {
        status: event.status,
        revisions: event.revisions,
        verification_failures: this.failures[event.tool] ?? 0,
        llm_calls: event.llm_calls,
        tokens: { input: event.tokens.input, output: event.tokens.output },
        cost_usd: event.cost_usd,
        // Logs written before the parts were recorded: an unknown cost's calls all count as unpriced.
        cost_usd_known: event.cost_usd_known ?? event.cost_usd ?? 0,
        unpriced_calls: event.unpriced_calls ?? (event.cost_usd === null ? event.llm_calls : 0),
      };
    }
  }

  /** The run's syntheses by tool name, in the order they first ended. */
  syntheses(): Readonly<Record<string, SynthesisTotals>> {
    return this.byTool;
  }
}
