import type { ChatCompletionRequest, FixtureResponse } from '@copilotkit/aimock';
import type { RetailTask } from '../retail-tasks.js';

/** The registry name Forge gives a retail tool served by the MCP server added as `retail`. */
export function retailToolName(tool: string): string {
  return `mcp__retail__${tool}`;
}

/** The text of a request's messages in one role, joined: what a scripted peer reads to answer. */
export function requestText(request: ChatCompletionRequest, role: 'system' | 'user'): string {
  return request.messages
    .filter((message) => message.role === role)
    .map((message) => (typeof message.content === 'string' ? message.content : ''))
    .join('\n');
}

/** Rough token usage from the request's size (4 characters a token): aimock needs a number, and it is labelled an estimate. */
export function estimatedUsage(request: ChatCompletionRequest, completionTokens: number): { prompt_tokens: number; completion_tokens: number } {
  return { prompt_tokens: Math.ceil(JSON.stringify(request.messages).length / 4), completion_tokens: completionTokens };
}

/**
 * A scripted agent for aimock: it plays the current task's ground-truth actions, one tool call per
 * turn (the next action after as many tool results as the conversation holds), then answers. This is
 * how a recording is made without a model: the actions are exactly τ-bench's, the loop, dispatch,
 * MCP transport and recording are Forge's own.
 */
export class ScriptedRetailAgent {
  current: RetailTask | undefined;

  respond(request: ChatCompletionRequest): FixtureResponse {
    const task = this.current;
    if (task === undefined) throw new Error('the scripted agent has no task');
    const done = request.messages.filter((message) => message.role === 'tool').length;
    const action = task.actions[done];
    if (action === undefined) return { content: `Done.${task.outputs.length === 0 ? '' : ` ${task.outputs.join(', ')}`}`, usage: estimatedUsage(request, 12) };
    return { toolCalls: [{ id: `call_${done + 1}`, name: retailToolName(action.name), arguments: JSON.stringify(action.kwargs) }], usage: estimatedUsage(request, 24) };
  }
}
