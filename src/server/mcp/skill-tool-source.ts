import type { SkillStore } from '../../core/index.js';
import { parseSkillDocument, parseSkillReference, skillProductView, type SkillDocument, type SkillReplayResult } from '../../skills/index.js';
import type { ExposedTool, ExposedToolResult, ExposedToolSource } from './exposed-tool-source.js';

export interface SkillToolSourceOptions {
  readonly skills: SkillStore;
  /** Skills published over MCP, by name or `name@version`. Nothing is published unless named; a stale skill is left out. */
  readonly published: readonly string[];
  /** Replays a published skill (by the reference it was published under) as a recorded run. */
  readonly replay: (reference: string, inputs: Record<string, unknown>, signal: AbortSignal) => Promise<SkillReplayResult>;
}

/** The MCP tool name of a skill: `skill_` and its kebab-case name. */
export function skillToolName(skillName: string): string {
  return `skill_${skillName}`;
}

/**
 * Published skills as MCP tools. A skill's input schema is its variables schema and its description
 * its product description (`skillProductView`): the contract, never the steps or the recording. A call
 * replays the skill (deterministic when every value is known, guided otherwise) as a run of its own on
 * the event bus, and returns the replay's answer with its summary (mode, model calls, tokens, cost,
 * status), not its steps' arguments or outputs.
 */
export function createSkillToolSource(options: SkillToolSourceOptions): ExposedToolSource {
  async function publishedDocuments(): Promise<Map<string, { document: SkillDocument; reference: string }>> {
    const documents = new Map<string, { document: SkillDocument; reference: string }>();
    for (const reference of options.published) {
      const { idOrName, version } = parseSkillReference(reference);
      const record = await options.skills.get(idOrName, version);
      if (record === undefined || record.status !== 'active') continue;
      const document = parseSkillDocument(record.document);
      documents.set(skillToolName(document.name), { document, reference });
    }
    return documents;
  }

  return {
    async list(): Promise<ExposedTool[]> {
      return [...(await publishedDocuments())].map(([name, { document }]) => {
        const view = skillProductView(document);
        return { name, description: view.description, inputSchema: view.inputs_schema };
      });
    },
    async call(name, args, signal): Promise<ExposedToolResult> {
      const published = (await publishedDocuments()).get(name);
      if (published === undefined) return { text: `Skill tool "${name}" is no longer published.`, isError: true };
      const replay = await options.replay(published.reference, args, signal);
      const summary = {
        run_id: replay.run_id,
        skill: replay.skill,
        status: replay.status,
        mode: replay.mode,
        llm_calls: replay.llm_calls,
        tokens: replay.tokens,
        cost_usd: replay.cost_usd,
        duration_ms: replay.duration_ms,
        steps: replay.steps.length,
        stale: replay.stale,
        error: replay.error,
      };
      return { text: replay.answer ?? replay.error?.message ?? '', structured: summary, isError: replay.status !== 'completed' };
    },
  };
}
