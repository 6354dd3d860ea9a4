/** Token usage of one model call. */
export interface TokenUsage {
  readonly input: number;
  readonly output: number;
}

/** What the cost meter keeps for every model call. */
export interface ModelCallRecord {
  readonly runId: string | null;
  readonly model: string;
  readonly purpose: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Dollars from the pricing table; `null` when the model has no known price (never guessed). */
  readonly costUsd: number | null;
  readonly latencyMs: number;
  /** SHA-256 of the request (system, messages, tools), so identical calls can be found. */
  readonly inputHash: string;
  readonly ts: string;
}

/** A small model for auxiliary, bounded tasks (translation, rescue choices). Metered like any call. */
export interface UtilityModel {
  readonly slug: string;
  complete(request: { system?: string; prompt: string; maxOutputTokens: number; purpose: string; signal?: AbortSignal }): Promise<string>;
}
