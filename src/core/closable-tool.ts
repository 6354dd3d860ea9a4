/** A tool that holds something to release when its runtime closes (the browser tools: a browser process). */
export interface ClosableTool {
  /** Releases it; calling again, or on another tool of the same group, is harmless. */
  close(): Promise<void>;
}

export function isClosableTool(tool: object): tool is ClosableTool {
  return typeof (tool as Partial<ClosableTool>).close === 'function';
}
