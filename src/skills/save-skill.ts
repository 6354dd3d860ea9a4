import type { ForgeEvent } from '../core/index.js';
import type { ToolRegistry } from '../tools/index.js';
import { abstractTrace } from './abstractor.js';
import { analyzeDataflow } from './dataflow.js';
import type { SkillDocument } from './skill-document.js';
import { traceFromEvents } from './trace.js';

/** Record → bind → abstract: the skill a finished run's events make, pinned to `registry`'s tool schemas. */
export function skillFromRunEvents(events: readonly ForgeEvent[], registry: ToolRegistry, options: { name?: string; description?: string } = {}): SkillDocument {
  const trace = traceFromEvents(events);
  return abstractTrace(trace, analyzeDataflow(trace), {
    ...options,
    specification: (tool) => registry.specification(tool),
  });
}
