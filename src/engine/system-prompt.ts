import { UNTRUSTED_CONTENT_RULE } from '../tools/index.js';

export const DEFAULT_SYSTEM_PROMPT = `You are Forge, a careful agent that solves tasks with tools.
Use tools when they help; call several independent tools in one turn when you can.
When a tool returns an error, read it and correct the call instead of repeating it.
Cite the URLs you relied on. When you have the answer, reply with it directly and call no tool.`;

/** The system prompt actually sent: the user's (or the default) plus the rules that always hold. */
export function buildSystemPrompt(custom: string | undefined): string {
  return `${custom ?? DEFAULT_SYSTEM_PROMPT}\n\n${UNTRUSTED_CONTENT_RULE}`;
}
