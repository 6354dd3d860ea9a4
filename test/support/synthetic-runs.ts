import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { AnyEventBody, ForgeEvent, HaltReason, RunKind, RunStatus, Store } from '../../src/core/index.js';
import { StoreRowDeriver, runLogPath } from '../../src/runs/run-log/index.js';
import { openStore } from '../../src/adapters/store/index.js';
import { SqliteConnection } from '../../src/adapters/store/libsql/sqlite-core.mjs';

/** One made-up run: its row as the run service would have left it, and its events. */
export interface SyntheticRun {
  readonly id: string;
  readonly kind: RunKind;
  readonly task: string;
  readonly model: string;
  readonly status: RunStatus;
  readonly createdAt: string;
  readonly logFile: string;
  readonly events: readonly ForgeEvent[];
}

const models = ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-4-6', 'ollama:llama3.2', 'openrouter:unpriced/model'] as const;
const builtinTools = ['web_search', 'read_url', 'http_request'] as const;
const synthesizedTools = ['count_links', 'release_version', 'word_count', 'csv_columns'] as const;

/** A small deterministic generator, so every fill of the same size holds the same runs. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function pageText(random: () => number): string {
  const length = 300 + Math.floor(random() * 5_700);
  return 'Forge release notes: caching by tool name and arguments, bounded history, a sandboxed toolbox. '.repeat(Math.ceil(length / 96)).slice(0, length);
}

/**
 * The `index`-th run of a realistic series: mostly agent runs over two to four model calls and one to
 * three tool calls (one call in ten fails), every 25th a convergence run that synthesizes a tool (the
 * gate catching a first draft half the time), skill replays and direct tool calls without a model,
 * later runs reusing synthesized tools, one model without a price, and halts of every kind. Runs at
 * or after `unfinishedFrom` are still going (no `run-end`).
 */
export function syntheticRun(home: string, index: number, unfinishedFrom: number): SyntheticRun {
  const random = randomFrom(index * 2_654_435_761 + 7);
  const id = `run${String(index).padStart(6, '0')}`;
  const started = Date.UTC(2026, 0, 1) + index * 60_000;
  const kind: RunKind = index % 25 === 0 ? 'converge' : index % 11 === 0 ? 'skill' : index % 17 === 0 ? 'tool-call' : 'agent';
  const model = kind === 'skill' || kind === 'tool-call' ? 'none' : models[index % models.length]!;
  const task = `${kind} task number ${index}: find the latest release and summarize it`;
  const events: ForgeEvent[] = [];
  const emit = (body: AnyEventBody) => events.push({ ts: new Date(started + events.length * 250).toISOString(), run_id: id, seq: events.length, ...body } as ForgeEvent);
  const usage = { calls: 0, input: 0, output: 0, cost: 0 as number | null };
  const callModel = (iteration: number, purpose: string, toolCalls: number, slug: string = model) => {
    const input = 200 + Math.floor(random() * 4_000);
    const output = 10 + Math.floor(random() * 400);
    const cost = slug.startsWith('openrouter:') ? null : slug.startsWith('ollama:') ? 0 : Math.round((input * 0.4 + output * 1.6) * 1_000) / 1e9;
    emit({ type: 'model-call-start', model: slug, iteration });
    emit({ type: 'model-call', model: slug, iteration, purpose, tokens: { input, output }, cost_usd: cost, latency_ms: 200 + random() * 800, input_hash: `sha256:${id}-${events.length}`, finish_reason: toolCalls > 0 ? 'tool-calls' : 'stop', tool_calls: toolCalls });
    usage.calls += 1;
    usage.input += input;
    usage.output += output;
    usage.cost = usage.cost === null || cost === null ? null : usage.cost + cost;
  };
  const callTool = (iteration: number | null, tool: string) => {
    const callId = `call_${events.length}`;
    emit({ type: 'tool-call-start', call_id: callId, tool, input: { query: `${task} ${callId}` }, iteration });
    emit({ type: 'policy-decision', call_id: callId, tool, decision: 'allow', reason: 'read-only tool' });
    if (random() < 0.1) emit({ type: 'tool-error', call_id: callId, tool, error: { name: 'ToolError', message: 'HTTP 503 from upstream' }, truncated: false, untrusted: true, duration_ms: 40 + random() * 400 });
    // Now and then a call the run's result cache answered (decided by position, so the random series stays as it was).
    else emit({ type: 'tool-result', call_id: callId, tool, output: pageText(random), truncated: false, untrusted: true, duration_ms: 40 + random() * 900, ...((events.length + index) % 4 === 0 ? { cached: true as const } : {}) });
  };
  emit({ type: 'run-start', task, model, max_iterations: kind === 'converge' ? 25 : 10, conversation_id: null, tools: [...builtinTools] });
  if (kind === 'converge') {
    const tool = synthesizedTools[(index / 25) % synthesizedTools.length]!;
    callModel(1, 'agent', 1);
    emit({ type: 'toolbox-change', tool, status: 'draft', revisions: 0, uses: 0 });
    callModel(1, 'synthesis-author', 0);
    callModel(1, 'synthesis-tester', 0, models[0]);
    const caught = random() < 0.5;
    if (caught) {
      emit({ type: 'verification-failed', tool, revision: 0, output: 'assert.equal failed: got "4.2", expected "4.2.0"' });
      callModel(1, 'synthesis-author', 0);
    }
    const promoted = random() < 0.9;
    emit({ type: 'synthesis-end', tool, status: promoted ? 'promoted' : 'failed', revisions: caught ? 1 : 0, llm_calls: caught ? 3 : 2, tokens: { input: 1_800, output: 600 }, cost_usd: 0.0012, flagged: false, failures: [] });
    emit({ type: 'toolbox-change', tool, status: promoted ? 'promoted' : 'failed', revisions: caught ? 1 : 0, uses: 0 });
    if (promoted) callTool(2, tool);
  } else if (kind === 'skill') {
    for (const [step, tool] of ['web_search', 'read_url'].entries()) {
      emit({ type: 'skill-step', skill: 'latest-release-notes', step, tool, arguments: { query: task }, resolutions: [] });
      callTool(null, tool);
    }
  } else if (kind === 'tool-call') {
    callTool(null, 'read_url');
  } else {
    const iterations = 1 + Math.floor(random() * 3);
    for (let iteration = 1; iteration <= iterations; iteration += 1) {
      callModel(iteration, 'agent', 1);
      // Later runs reuse synthesized tools now and then.
      callTool(iteration, index > 50 && random() < 0.15 ? synthesizedTools[Math.floor(random() * synthesizedTools.length)]! : builtinTools[Math.floor(random() * builtinTools.length)]!);
    }
    if (random() < 0.02) emit({ type: 'model-error', model, iteration: iterations + 1, error: { name: 'APICallError', message: 'rate limited' }, status_code: 429, latency_ms: 30 });
    callModel(iterations + 1, 'agent', 0);
    emit({ type: 'assistant-text', iteration: iterations + 1, text: 'The latest release adds caching by tool name and arguments.' });
  }
  const roll = random();
  const [status, haltReason]: [RunStatus, HaltReason] =
    roll < 0.85 ? ['completed', kind === 'converge' ? 'converged' : 'final_answer'] : roll < 0.9 ? ['failed', 'cap'] : roll < 0.94 ? ['failed', 'error'] : roll < 0.97 ? ['cancelled', 'cancelled'] : ['failed', 'interrupted'];
  const unfinished = index >= unfinishedFrom;
  if (!unfinished) {
    emit({
      type: 'run-end',
      status,
      halt_reason: haltReason,
      answer: status === 'completed' ? 'The latest release adds caching by tool name and arguments.' : null,
      llm_calls: usage.calls,
      tokens: { input: usage.input, output: usage.output },
      cost_usd: usage.cost,
      error: status === 'completed' ? null : { name: 'RunError', message: `ended: ${haltReason}` },
      duration_ms: events.length * 250,
    });
  }
  return { id, kind, task, model, status: unfinished ? 'running' : status, createdAt: new Date(started).toISOString(), logFile: runLogPath(home, id, new Date(started)), events };
}

/** What `fillSyntheticRuns` wrote. */
export interface SyntheticRunSet {
  readonly runs: number;
  readonly events: number;
  readonly logFiles: readonly string[];
}

/**
 * Writes `count` synthetic runs into FORGE_HOME `home`: each run's log under `runs/`, and in the store
 * (`home/forge.db`) the rows the run service and the recorder would have left: a `runs` row (owned by
 * this process, so nothing calls the unfinished ones interrupted), and the events, steps and model
 * calls derived from the events exactly as the recorder derives them. Fast: runs go in with multi-row
 * INSERTs, everything else through `Store.transaction` a few hundred runs at a time. The last
 * `unfinished` runs are still running.
 */
export async function fillSyntheticRuns(home: string, count: number, options: { unfinished?: number } = {}): Promise<SyntheticRunSet> {
  const unfinishedFrom = count - (options.unfinished ?? 0);
  const url = path.join(home, 'forge.db');
  await mkdir(path.join(home, 'runs'), { recursive: true });
  // Opened first to create the file and its schema; the runs rows then go in directly.
  await (await openStore({ url })).close();
  const all = Array.from({ length: count }, (_, index) => syntheticRun(home, index, unfinishedFrom));
  await insertRunRows(url, all);
  const store = await openStore({ url });
  try {
    for (let start = 0; start < all.length; start += 250) await recordEvents(store, all.slice(start, start + 250));
  } finally {
    await store.close();
  }
  for (let start = 0; start < all.length; start += 64) {
    await Promise.all(all.slice(start, start + 64).map((run) => writeFile(run.logFile, run.events.map((event) => `${JSON.stringify(event)}\n`).join(''))));
  }
  return { runs: count, events: all.reduce((sum, run) => sum + run.events.length, 0), logFiles: all.map((run) => run.logFile) };
}

async function insertRunRows(url: string, runs: readonly SyntheticRun[]): Promise<void> {
  const connection = SqliteConnection.open(url, { busyTimeoutMs: 5_000 });
  try {
    const statements = [];
    for (let start = 0; start < runs.length; start += 50) {
      const chunk = runs.slice(start, start + 50);
      statements.push({
        sql: `INSERT INTO runs (id, kind, task, model, status, halt_reason, answer, conversation_id, llm_calls, input_tokens, output_tokens, cost_usd, error, owner_pid, owner_host, log_file, created_at, updated_at)
              VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        args: chunk.flatMap((run) => {
          const end = run.events.find((event) => event.type === 'run-end');
          return [
            run.id, run.kind, run.task, run.model, run.status, end?.halt_reason ?? null, end?.answer ?? null,
            end?.llm_calls ?? 0, end?.tokens.input ?? 0, end?.tokens.output ?? 0, end === undefined ? 0 : end.cost_usd, end?.error?.message ?? null,
            process.pid, hostname(), run.logFile, run.createdAt, end?.ts ?? run.createdAt,
          ];
        }),
      });
    }
    connection.execute('BEGIN IMMEDIATE');
    for (const statement of statements) connection.execute(statement);
    connection.execute('COMMIT');
  } finally {
    connection.close();
  }
}

async function recordEvents(store: Store, runs: readonly SyntheticRun[]): Promise<void> {
  await store.transaction(async (writes) => {
    for (const run of runs) {
      const rows = new StoreRowDeriver(run.id).derive(run.events);
      await writes.events.appendAll(run.events);
      await writes.steps.recordAll(rows.steps);
      await writes.modelCalls.recordAll(rows.modelCalls);
      await writes.toolCalls.recordAll(rows.toolCalls);
    }
  });
}
