import { callSideEffect, type Tool } from '../core/index.js';
import type { SkillStep } from './document/skill-document.js';

/**
 * Whether one call of a skill's step writes: the one decision a replay, `forge skill test` and the
 * write-constant check all make. A step recorded as a write, or whose tool is not registered, writes;
 * otherwise the tool decides for this input (`http_request` with GET reads, with POST writes).
 */
export function stepSideEffect(step: SkillStep, tool: Pick<Tool, 'sideEffect'> | undefined, input: unknown): 'read' | 'write' {
  if (step.side_effect === 'write' || tool === undefined) return 'write';
  // An input that is not known (a document without its recording's steps) proves nothing: it counts as a write.
  if (input === null || typeof input !== 'object') return tool.sideEffect === 'read' ? 'read' : 'write';
  return callSideEffect(tool, input);
}
