import { ForgeError } from '../core/index.js';

/**
 * An agent's final answer did not match its output definitions, and neither did its answer to the one
 * retry. Carries every problem of the last answer and that answer itself, so a caller can show or
 * store what the model actually wrote.
 */
export class AgentOutputError extends ForgeError {
  readonly agent: string;
  /** What is wrong with the last answer, each with the path it is at (`sources[0].url: …`). */
  readonly errors: readonly string[];
  /** The last answer exactly as the model wrote it. */
  readonly raw: string;

  constructor(agent: string, failure: { readonly errors: readonly string[]; readonly raw: string }) {
    const shown = failure.errors.slice(0, 3).join('; ');
    const more = failure.errors.length > 3 ? ` (${failure.errors.length} problems in all)` : '';
    super({
      name: 'AgentOutputError',
      message: `Agent "${agent}" answered with output that does not match its output definitions, also after one retry: ${shown}${more}`,
      hint: `The answer is attached to this error (raw). Make the system prompt ask for the outputs \`forge agent show ${agent}\` lists, or change the output definitions to fit what the agent produces.`,
    });
    this.agent = agent;
    this.errors = failure.errors;
    this.raw = failure.raw;
  }
}
