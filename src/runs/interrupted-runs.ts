import { appendFile, readFile, truncate } from 'node:fs/promises';
import type { ForgeEvent, RunOwner, RunRecord, Store } from '../core/index.js';
import { costOfCalls } from '../llm/index.js';
import { readRunLog, StoreRowDeriver } from './run-log/index.js';

/** A process on this host that still exists (a signal 0 reaches it, or it belongs to someone else). */
export function processAlive(owner: RunOwner, host: string): boolean {
  if (owner.host !== host) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Ends every run left `running` by a process that is gone (`alive` says no; a run with no
 * recorded owner counts as gone, since only a process from before owners were recorded could have left
 * it). For each, in one transaction: the events its run log holds but the store missed (the store is
 * written at most every 100 ms, the log at once) are stored, with their steps and model calls, and a
 * `run-end` event, `failed` with halt reason `interrupted`, is stored and appended to the log; the row
 * then says so. A run whose log already ends with its `run-end` is ended as that event says instead. A
 * last log line the dead process cut off mid-write is dropped first, so the log stays readable to its
 * end. Returns the ids it ended.
 */
export async function endInterruptedRuns(store: Store, alive: (owner: RunOwner) => boolean): Promise<string[]> {
  const ended: string[] = [];
  // A waiting run needs no process: it waits in the store for its answer, however long the answerer takes.
  for (const run of await store.runs.list({ statuses: ['running'] })) {
    if (run.owner !== null && alive(run.owner)) continue;
    await endInterruptedRun(store, run);
    ended.push(run.id);
  }
  return ended;
}

/**
 * Ends one run whose process is gone as `endInterruptedRuns` does: what its log holds beyond the store
 * is stored (when the log is on this disk), then a `run-end`, `failed` with halt reason `interrupted`.
 */
export async function endInterruptedRun(store: Store, run: RunRecord): Promise<void> {
  const stored = await store.events.list(run.id);
  const logged = run.logFile === null ? [] : await loggedEvents(run.logFile, run.id);
  const storedUpTo = Math.max(-1, ...stored.map((event) => event.seq));
  const missed = logged.filter((event) => event.seq > storedUpTo);
  const known = [...stored, ...missed];
  const rows = new StoreRowDeriver(run.id);
  rows.derive(known.filter((event) => event.seq <= storedUpTo));
  const derived = rows.derive(missed);
  const { steps, modelCalls, toolCalls } = derived;
  // Only a last event that ends (or pauses) the run says how it stands; an earlier one was followed by more work.
  const lastType = known.at(-1)?.type;
  const runUpdate = lastType === 'run-end' || lastType === 'run-pause' ? derived.runUpdate : undefined;
  // A run whose `run-end` reached its log but not the store (killed between the two) finished: it ends as its log says.
  const end = runUpdate === undefined ? interruptedEnd(run, known) : undefined;
  if (end !== undefined && run.logFile !== null) await appendFile(run.logFile, `${JSON.stringify(end)}\n`, { mode: 0o600 }).catch(() => undefined);
  await store.transaction(async (writes) => {
    await writes.events.appendAll(end === undefined ? missed : [...missed, end]);
    await writes.steps.recordAll(steps);
    await writes.modelCalls.recordAll(modelCalls);
    await writes.toolCalls.recordAll(toolCalls);
    // The run-end written for it sets its record as any run-end does: failed, with every call it made counted.
    await writes.runs.update(run.id, runUpdate ?? rows.derive(end === undefined ? [] : [end]).runUpdate ?? { status: 'failed', haltReason: 'interrupted' });
  });
}

/** The `run-end` the dead process never wrote, after the last event anyone recorded, with the totals it had. */
function interruptedEnd(run: RunRecord, known: readonly ForgeEvent[]): ForgeEvent {
  const calls = known.flatMap((event) => (event.type === 'model-call' ? [event] : []));
  const cost = costOfCalls(calls.map((call) => call.cost_usd));
  return {
    ts: new Date().toISOString(),
    run_id: run.id,
    seq: Math.max(-1, ...known.map((event) => event.seq)) + 1,
    type: 'run-end',
    status: 'failed',
    halt_reason: 'interrupted',
    answer: null,
    llm_calls: calls.length,
    tokens: { input: calls.reduce((sum, call) => sum + call.tokens.input, 0), output: calls.reduce((sum, call) => sum + call.tokens.output, 0) },
    cost_usd: cost.costUsd,
    cost_usd_known: cost.pricedCostUsd,
    unpriced_calls: cost.unpricedCalls,
    error: {
      name: 'RunInterruptedError',
      message: `The process that ran it${run.owner === null ? '' : ` (pid ${run.owner.pid} on ${run.owner.host})`} ended before the run finished.`,
      hint: 'Resume it with `forge run --resume <run-id>` (a loop run goes on from its last checkpoint), or run the task again; what it did before it stopped is in its run log.',
    },
    duration_ms: Math.max(0, Date.now() - Date.parse(run.createdAt)),
  };
}

/** The run's events in its log, after dropping a last line cut off mid-write; none when the log is gone. */
async function loggedEvents(logFile: string, runId: string): Promise<ForgeEvent[]> {
  let text: string;
  try {
    text = await readFile(logFile, 'utf8');
  } catch {
    return [];
  }
  if (text !== '' && !text.endsWith('\n')) await truncate(logFile, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
  const { events } = await readRunLog(logFile);
  return events.filter((event) => event.run_id === runId);
}
