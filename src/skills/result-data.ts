import { unwrapUntrustedContent } from '../tools/index.js';

/**
 * A tool's result as skills read it, from the text dispatch showed the model: the untrusted-content
 * boundary is taken off and JSON is parsed (a remote tool's JSON string result becomes its object).
 * Recording reads each result from its `tool-result` event and replay from its dispatch outcome, both
 * through this one function, so a binding that found a value while recording finds it in the fresh
 * result the same way. Text that is not JSON (or JSON cut by the output cap) stays text, which is
 * exactly what the model saw and could take values from.
 */
export function resultData(output: string): unknown {
  const inner = unwrapUntrustedContent(output);
  const trimmed = inner.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return inner;
    }
  }
  return inner;
}
