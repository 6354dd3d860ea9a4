import path from 'node:path';

/** `FORGE_HOME/runs/<timestamp>-<run id>.jsonl`; the timestamp sorts runs by start time. */
export function runLogPath(home: string, runId: string, startedAt: Date = new Date()): string {
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  return path.join(home, 'runs', `${stamp}-${runId}.jsonl`);
}
