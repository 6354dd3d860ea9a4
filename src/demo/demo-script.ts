import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ScriptedReply } from './scripted-model.js';

interface ToolResultSeen {
  readonly toolName: string;
  readonly text: string;
  readonly isError: boolean;
}

function lastToolResult(prompt: LanguageModelV3Prompt): ToolResultSeen | undefined {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index]!;
    if (message.role === 'user') return undefined;
    if (message.role !== 'tool') continue;
    const part = message.content.findLast((candidate) => candidate.type === 'tool-result');
    if (part === undefined || part.type !== 'tool-result') continue;
    const output = part.output;
    const text = output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify(output);
    return { toolName: part.toolName, text, isError: output.type === 'error-text' };
  }
  return undefined;
}

function userTask(prompt: LanguageModelV3Prompt): string {
  const message = prompt.findLast((candidate) => candidate.role === 'user');
  if (message === undefined || message.role !== 'user') return '';
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}

/** The JSON inside an untrusted-content wrapper. */
function unwrapJson(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function firstSentences(markdown: string, count: number): string {
  const prose = markdown
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .join(' ');
  return (prose.match(/[^.!?]+[.!?]/g) ?? [prose]).slice(0, count).join('').trim();
}

/**
 * What the demo's scripted model does: search for the task, read the best result, answer from what
 * it read with a citation. It only ever uses values real tools returned (selection, not invention).
 */
export function demoReply(prompt: LanguageModelV3Prompt): ScriptedReply {
  const last = lastToolResult(prompt);
  if (last === undefined) return { text: 'Let me search for that.', toolCalls: [{ name: 'web_search', input: { query: userTask(prompt), max_results: 3 } }] };
  if (last.isError) return { text: `I could not finish: a tool failed (${last.text.split('\n')[0]}).` };
  const data = unwrapJson(last.text);
  if (last.toolName === 'web_search') {
    const results = (data?.['results'] as Array<{ url?: string }> | undefined) ?? [];
    const url = results[0]?.url;
    if (url === undefined) return { text: 'The search returned nothing I could read.' };
    return { toolCalls: [{ name: 'read_url', input: { url } }] };
  }
  const title = String(data?.['title'] ?? 'the page');
  const url = String(data?.['url'] ?? '');
  return { text: `${firstSentences(String(data?.['markdown'] ?? ''), 2)}\n\nSource: ${title} — ${url}` };
}
