/**
 * A tool that holds something for each run it served (the browser tools: the run's browser context)
 * and gives it back when the run ends: completed, failed, cancelled, or paused for an approval (a
 * paused run may wait for days; it opens what it needs again when it goes on).
 */
export interface RunResourceHolder {
  /** Releases what the run holds; harmless for a run that holds nothing, and when called again. */
  releaseRun(runId: string): Promise<void>;
}

export function holdsRunResources(tool: object): tool is RunResourceHolder {
  return typeof (tool as Partial<RunResourceHolder>).releaseRun === 'function';
}
