import { callSideEffect, type ForgeEvent } from '../core/index.js';
import type { ToolRegistry } from '../tools/index.js';
import { abstractTrace } from './abstractor.js';
import { analyzeDataflow } from './dataflow.js';
import type { SkillDocument } from './document/skill-document.js';
import { traceFromEvents } from './trace.js';

export interface SaveSkillOptions {
  readonly name?: string;
  readonly description?: string;
  /** Arguments to pin as constants (`steps[2].subject`). */
  readonly constants?: readonly string[];
}

/** What a recorded call could do, by the live tool; a tool no longer registered is taken to write. */
export function recordedSideEffect(registry: ToolRegistry): (tool: string, input: unknown) => 'read' | 'write' {
  return (tool, input) => {
    const registered = registry.get(tool);
    return registered === undefined ? 'write' : callSideEffect(registered, input);
  };
}

/** Record → bind → abstract: the skill a finished run's events make, pinned to `registry`'s tool schemas. */
export function skillFromRunEvents(events: readonly ForgeEvent[], registry: ToolRegistry, options: SaveSkillOptions = {}): SkillDocument {
  const trace = traceFromEvents(events);
  return abstractTrace(trace, analyzeDataflow(trace, recordedSideEffect(registry)), {
    ...options,
    specification: (tool) => registry.specification(tool),
  });
}
