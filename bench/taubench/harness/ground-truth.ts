import { resultData } from '../../../src/skills/index.js';
import { RETAIL_TOOLS, invokeRetailTool, loadRetailData, retailDataHash, type RetailTask } from '../index.js';

/** What a task's ground-truth actions do to a fresh copy of the database. */
export interface GroundTruthRun {
  /** Each action's result as skills read results (JSON parsed, text otherwise). */
  readonly results: readonly unknown[];
  /** Whether each action answered with an error (and so changed nothing). */
  readonly errors: readonly boolean[];
  /** τ-bench's hash of the database after every action. */
  readonly hash: string;
  /** The writes that took effect, in order: what a correct replay may write. */
  readonly writes: readonly { readonly tool: string; readonly arguments: unknown }[];
}

const writeTools = new Set(RETAIL_TOOLS.filter((tool) => tool.writes).map((tool) => tool.name));

export function isRetailError(result: string): boolean {
  return result.startsWith('Error:') || result.startsWith('Unknown action');
}

export function isRetailWrite(tool: string): boolean {
  return writeTools.has(tool);
}

/** Runs a task's ground-truth actions on a fresh copy, as τ-bench does to score a run. */
export function groundTruthRun(task: RetailTask): GroundTruthRun {
  const data = loadRetailData();
  const results: unknown[] = [];
  const errors: boolean[] = [];
  const writes: { tool: string; arguments: unknown }[] = [];
  for (const action of task.actions) {
    const result = invokeRetailTool(data, action.name, action.kwargs);
    const failed = isRetailError(result);
    results.push(resultData(result));
    errors.push(failed);
    if (!failed && writeTools.has(action.name)) writes.push({ tool: action.name, arguments: action.kwargs });
  }
  return { results, errors, hash: retailDataHash(data), writes };
}
