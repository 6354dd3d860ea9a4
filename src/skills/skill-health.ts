import type { ToolSet } from '../tools/index.js';
import { schemaHash } from './schema-hash.js';
import type { SkillDocument } from './document/skill-document.js';

/**
 * Why the tools in `tools` no longer fit the skill: a tool it needs is gone, or a tool's input
 * schema changed since recording (its hash differs). One clear sentence per problem; none when healthy.
 */
export function toolSchemaProblems(document: SkillDocument, tools: ToolSet): string[] {
  const problems: string[] = [];
  const pinned = new Map(document.tools.map((tool) => [tool.name, tool.schema_hash]));
  for (const tool of new Set(document.steps.map((step) => step.tool))) {
    const specification = tools.specification(tool);
    if (specification === undefined) {
      problems.push(`tool "${tool}" is no longer registered`);
      continue;
    }
    const recorded = pinned.get(tool);
    const current = schemaHash(specification.inputSchema);
    if (recorded !== undefined && recorded !== current) {
      problems.push(`tool "${tool}" changed its input schema since the skill was recorded (schema hash ${recorded} → ${current})`);
    }
  }
  return problems;
}
