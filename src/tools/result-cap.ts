/** About how much of one tool result, or one tool error message, a model is shown. */
export const DEFAULT_OUTPUT_LIMIT = 12_000;

export interface CappedText {
  readonly text: string;
  readonly truncated: boolean;
  readonly originalLength: number;
}

/**
 * Cuts text fed back to a model (a tool's result or its error message alike) at `limit` characters and
 * says so visibly, so the model knows it saw only a part (and can ask for less). A cut never splits a
 * surrogate pair.
 */
export function capToolOutput(text: string, limit = DEFAULT_OUTPUT_LIMIT): CappedText {
  if (text.length <= limit) return { text, truncated: false, originalLength: text.length };
  const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return {
    text: `${text.slice(0, end)}\n\n[truncated by Forge: showing the first ${end} of ${text.length} characters]`,
    truncated: true,
    originalLength: text.length,
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
