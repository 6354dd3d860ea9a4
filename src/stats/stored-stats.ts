import type { ModelUsageRecord, RunRecord, StatsStore, Store } from '../core/index.js';
import { AggregateTally, NO_USAGE, SYNTHESIS_EVENT_TYPES, SynthesisTally, sumUsage, type RunTotals, type SynthesisEvent, type UsageTotals } from '../runs/run-log/index.js';
import { runStatsOf, toolFiguresOf, type AggregateStats, type RunStats } from './stats-report.js';

/** The newest stored run's figures; undefined when the store holds no run. */
export async function newestRunStats(store: Store): Promise<RunStats | undefined> {
  const [newest] = await store.runs.list({ limit: 1 });
  return newest === undefined ? undefined : storedRunStatsOf(store.stats, newest);
}

/** One stored run's figures; undefined for an unknown id. */
export async function storedRunStats(store: Store, runId: string): Promise<RunStats | undefined> {
  const run = await store.runs.get(runId);
  return run === undefined ? undefined : storedRunStatsOf(store.stats, run);
}

/**
 * Every stored run added up; undefined when the store holds no run. Counts, usage, tool calls and
 * their analytics (percentiles included) are summed by the database; only the synthesis events are
 * read, a page at a time, and folded one run at a time, so memory does not grow with the number of
 * runs (only `files` lists one entry per run).
 */
export async function allRunsStats(store: Store): Promise<AggregateStats | undefined> {
  const summary = await store.stats.summarize();
  if (summary.halts.length === 0) return undefined;
  const tally = new AggregateTally();
  for (const halt of summary.halts) tally.addRuns(halt.haltReason, halt.runs);
  for (const model of summary.models) tally.addModelUsage(model.model, usageOf(model));
  for (const tool of summary.tools) {
    tally.addToolCalls(tool.tool, tool.calls);
    tally.addToolErrors(tool.errors);
  }
  for await (const syntheses of synthesesPerRun(store.stats.eventsOfTypes(SYNTHESIS_EVENT_TYPES))) tally.addRunSyntheses(syntheses);
  return { files: await store.stats.runLogFiles(), totals: tally.totals(), tools: toolFiguresOf(summary.toolUsage), errors: [] };
}

/**
 * A stored run's figures: what it is and how it stands (a run still going shows `running`) from its
 * row, usage and tool calls summed by the database, and from its events only model errors, its
 * duration and its syntheses.
 */
async function storedRunStatsOf(stats: StatsStore, run: RunRecord): Promise<RunStats> {
  const scope = { runId: run.id };
  const { models, tools: toolCalls, toolUsage } = await stats.summarize(scope);
  let overall = NO_USAGE;
  // Keyed by names from data (`__proto__` is a valid tool name): no prototype.
  const perModel = Object.create(null) as Record<string, UsageTotals>;
  for (const model of models) {
    perModel[model.model] = usageOf(model);
    overall = sumUsage(overall, perModel[model.model]!);
  }
  const tools = Object.create(null) as Record<string, number>;
  for (const tool of toolCalls) tools[tool.tool] = tool.calls;
  const syntheses = new SynthesisTally();
  let modelErrors = 0;
  let durationMs: number | null = null;
  for await (const event of stats.eventsOfTypes(['model-error', 'run-end', ...SYNTHESIS_EVENT_TYPES], scope)) {
    if (event.type === 'model-error') modelErrors += 1;
    else if (event.type === 'run-end') durationMs ??= event.duration_ms;
    else syntheses.add(event);
  }
  const totals: RunTotals = {
    run_id: run.id,
    task: run.task,
    model: run.model,
    status: run.status,
    halt_reason: run.haltReason,
    answer: run.answer,
    llm_calls: overall.llm_calls,
    tokens: overall.tokens,
    cost_usd: overall.cost_usd,
    cost_usd_known: overall.cost_usd_known,
    unpriced_calls: overall.unpriced_calls,
    tool_calls: toolCalls.reduce((sum, tool) => sum + tool.calls, 0),
    tool_errors: toolCalls.reduce((sum, tool) => sum + tool.errors, 0),
    model_errors: modelErrors,
    tools,
    per_model: perModel,
    syntheses: syntheses.syntheses(),
    duration_ms: durationMs,
  };
  return runStatsOf(run.logFile, totals, toolUsage);
}

function usageOf(record: ModelUsageRecord): UsageTotals {
  return { llm_calls: record.llmCalls, tokens: { input: record.inputTokens, output: record.outputTokens }, cost_usd: record.costUsd, cost_usd_known: record.pricedCostUsd, unpriced_calls: record.unpricedCalls };
}

/** Each run's syntheses from synthesis events that come run by run, in seq order within a run. */
async function* synthesesPerRun(events: AsyncIterable<SynthesisEvent>): AsyncGenerator<ReturnType<SynthesisTally['syntheses']>> {
  let runId: string | undefined;
  let tally = new SynthesisTally();
  for await (const event of events) {
    if (event.run_id !== runId) {
      if (runId !== undefined) yield tally.syntheses();
      runId = event.run_id;
      tally = new SynthesisTally();
    }
    tally.add(event);
  }
  if (runId !== undefined) yield tally.syntheses();
}
