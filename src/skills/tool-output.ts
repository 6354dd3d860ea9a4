const untrustedWrapper = /^<untrusted-content source="[^"]*">\n([\s\S]*)\n<\/untrusted-content>$/;

/**
 * A tool's result as structured data, read back from the text dispatch showed the model: the
 * untrusted-content wrapper is taken off and JSON is parsed. Text that is not JSON (or JSON cut by the
 * output cap) stays text, which is still exactly what the model saw and could take values from.
 */
export function structuredToolResult(output: string): unknown {
  const inner = untrustedWrapper.exec(output)?.[1] ?? output;
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

/** A fresh tool value as a recorded one would read back: plain JSON (no `undefined`, no class instances). */
export function plainJson(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  return JSON.parse(JSON.stringify(value)) as unknown;
}
