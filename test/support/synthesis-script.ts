import type { LLMock } from '@copilotkit/aimock';

/**
 * Scripts aimock to play the convergence agent, the tool author and the tester, by markers in the task
 * and in the requested tool's purpose. Shared by the in-process and the command-line synthesis tests.
 */
export type MockRequest = Parameters<Extract<Parameters<LLMock['on']>[1], (...args: never[]) => unknown>>[0];
export type ScriptedCall = { name: string; arguments: Record<string, unknown> };

/** What each scripted agent turn reports using. */
export const usage = { prompt_tokens: 100, completion_tokens: 20 };

export const toolNames = (request: MockRequest) => (request.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name);
export const firstUser = (request: MockRequest) => JSON.stringify(request.messages.find((message) => message.role === 'user')?.content ?? '');
export const assistantTurns = (request: MockRequest) => request.messages.filter((message) => message.role === 'assistant').length;

/** Scripts the agent for tasks containing `marker`: the n-th turn's single tool call is `turns(n)`. */
export function scriptAgent(mock: LLMock, marker: string, turns: (turn: number) => ScriptedCall): void {
  mock.on({ predicate: (request) => toolNames(request).includes('final_answer') && firstUser(request).includes(marker) }, (request) => {
    const turn = assistantTurns(request);
    const call = turns(turn);
    return { toolCalls: [{ id: `call_${marker}_${turn}`, name: call.name, arguments: JSON.stringify(call.arguments) }], usage };
  });
}

/** Scripts the author (submit_tool) and tester (submit_test) for contracts whose purpose contains `marker`. */
export function scriptSynthesis(mock: LLMock, marker: string, sources: { tool: (revision: number) => string; test: (revision: number) => string }): void {
  const revision = (request: MockRequest) => request.messages.filter((message) => message.role === 'tool').length;
  mock.on({ predicate: (request) => toolNames(request).includes('submit_tool') && firstUser(request).includes(marker) }, (request) => ({
    toolCalls: [{ id: `author_${marker}_${revision(request)}`, name: 'submit_tool', arguments: JSON.stringify({ source: sources.tool(revision(request)) }) }],
    usage: { prompt_tokens: 300, completion_tokens: 150 },
  }));
  mock.on({ predicate: (request) => toolNames(request).includes('submit_test') && firstUser(request).includes(marker) }, (request) => ({
    toolCalls: [{ id: `tester_${marker}_${revision(request)}`, name: 'submit_test', arguments: JSON.stringify({ source: sources.test(revision(request)) }) }],
    usage: { prompt_tokens: 200, completion_tokens: 120 },
  }));
}
