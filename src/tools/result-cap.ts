/** About how much of one tool result a model is shown. */
export const DEFAULT_OUTPUT_LIMIT = 12_000;

export interface CappedText {
  readonly text: string;
  readonly truncated: boolean;
  readonly originalLength: number;
}

/**
 * Cuts text fed back to a model at `limit` characters and says so visibly, so the model knows it
 * saw only a part (and can ask for less).
 */
export function capToolOutput(text: string, limit = DEFAULT_OUTPUT_LIMIT): CappedText {
  if (text.length <= limit) return { text, truncated: false, originalLength: text.length };
  return {
    text: `${text.slice(0, limit)}\n\n[truncated by Forge: showing the first ${limit} of ${text.length} characters]`,
    truncated: true,
    originalLength: text.length,
  };
}
