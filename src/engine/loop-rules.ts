import type { LanguageModelV3ToolChoice } from '@ai-sdk/provider';
import type { AnyTool, ErrorInfo, RunState } from '../core/index.js';
import type { DispatchOutcome, ToolSet } from '../tools/index.js';
import type { ModelToolCall } from './model-turn.js';

/** What the loop shares with its rules while it runs. */
export interface LoopContext {
  /** The model turn in progress (1-based), or the last one completed between turns. */
  readonly turn: number;
  readonly cap: number;
  /** The run's tool set; rules may widen it (a tool the run promoted), never the catalog's. */
  tools: ToolSet;
}

/** One finished turn: the calls the model made and what each returned (unrun extra calls have no outcome). */
export interface TurnReport {
  readonly turn: number;
  readonly calls: readonly ModelToolCall[];
  readonly outcomes: readonly DispatchOutcome[];
}

/** A stop condition's verdict after a turn: stop with an answer, stop converged, or go on. */
export type TurnVerdict = { readonly halt: 'final_answer'; readonly answer: string } | { readonly halt: 'converged' } | undefined;

/**
 * How one kind of run uses the loop: the turn rules (tool choice, one call per turn, its own tools, what
 * follows a turn) and the stop conditions besides the cap. The agent's rules are the defaults; the
 * convergence rules force one call per turn, add the plan and toolbox tools, and stop when converged.
 */
export interface LoopRules {
  readonly kind: RunState['kind'];
  /** Tools the loop adds to the run's catalog tools; they take their names over from catalog tools. */
  readonly ownTools: readonly AnyTool[];
  readonly toolChoice: LanguageModelV3ToolChoice;
  /** Only the first call of a turn runs; the others are refused back to the model. */
  readonly oneCallPerTurn: boolean;
  /** A turn without tool calls ends the run with its text as the answer, or is answered with a reminder. */
  readonly noCalls: 'final-answer' | 'reminder';
  /** The first user message, from the task. */
  firstMessage(task: string): string | Promise<string>;
  /** A user message sent after a turn's tool results (the convergence state block), or null for none. */
  afterTools(report: TurnReport): string | null | Promise<string | null>;
  /** Stop conditions checked after every turn with calls. */
  afterTurn(report: TurnReport): TurnVerdict;
  /** Why the cap ended the run, and what a reader must not miss about it. */
  capHalt(cap: number): { readonly error: ErrorInfo; readonly warning?: string };
  /** The rules' own state, checkpointed with the run's (convergence runs only). */
  save(): RunState['converge'];
  /** Things a reader must not miss, recorded on `run-end`. */
  warnings(): readonly string[];
}
