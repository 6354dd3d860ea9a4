import { ForgeError } from './errors.js';
import type { HaltReason } from './events.js';
import type { TokenUsage } from './model.js';

/** A model call about to be made, as every pre-call check sees it. */
export interface ModelCallRequest {
  /** The run the call belongs to; null for a call outside any run (a command's own). */
  readonly runId: string | null;
  /** The account whose run makes the call; null for the CLI's runs and calls outside a run. */
  readonly userId: string | null;
  /** The service key that started the run, when one did (quotas per key); null otherwise. */
  readonly apiKeyId: string | null;
  /** The model's slug (`openai:gpt-4.1-mini`). */
  readonly model: string;
  /** Why the call is made (`agent-step`, `rescue`, `tool-author`, …), as the `model-call` event names it. */
  readonly purpose: string;
  /** What the run has spent before this call (carried over a resume). */
  readonly spent: {
    readonly llmCalls: number;
    readonly tokens: TokenUsage;
    /** Null when any call had no known price (see `pricedCostUsd`). */
    readonly costUsd: number | null;
    /** The sum of the calls' known costs: what a dollar limit counts (calls without a price add nothing). */
    readonly pricedCostUsd: number;
  };
}

/**
 * One check that every model call of a run passes before it is made: the run's own limits today, an
 * account's quota or a mission's budget as they are plugged in. Resolves when the call may go ahead;
 * refuses it by throwing, normally a `ModelCallRefusedError` naming the halt reason the run ends with
 * (a loop ends its run with that reason; any other error ends it `error`). A check sees calls in the
 * order they are made; it must not make model calls itself.
 */
export interface ModelCallCheck {
  /** Names the check in errors and logs (`run-limits`, `account-quota`). */
  readonly name: string;
  check(call: ModelCallRequest): Promise<void> | void;
}

/** A model call a pre-call check refused: the run ends with `haltReason`, and the message and hint say why and what to do. */
export class ModelCallRefusedError extends ForgeError {
  readonly haltReason: HaltReason;
  /** The check that refused (`ModelCallCheck.name`). */
  readonly check: string;
  constructor(options: { check: string; haltReason: HaltReason; message: string; hint?: string }) {
    super({ name: 'ModelCallRefusedError', message: options.message, ...(options.hint === undefined ? {} : { hint: options.hint }) });
    this.haltReason = options.haltReason;
    this.check = options.check;
  }
}
