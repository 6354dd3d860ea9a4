import { ownsRecord, type Principal, type SkillStore } from '../../core/index.js';
import { parseSkillDocument, parseSkillReference, skillProductView, type SkillDocument, type SkillReplayResult } from '../../skills/index.js';
import type { ExposedTool, ExposedToolResult, ExposedToolSource } from './exposed-tool-source.js';

export interface SkillToolSourceOptions {
  readonly skills: SkillStore;
  /** Skills published over MCP, by name or `name@version`. Nothing is published unless named; a stale skill is left out. */
  readonly published: readonly string[];
  /** Replays a published skill (by the reference it was published under) as a recorded run of the account `userId`. */
  readonly replay: (reference: string, inputs: Record<string, unknown>, signal: AbortSignal, userId: string | null) => Promise<SkillReplayResult>;
  /** The installation's first admin, owner of skills stored without an account; none when absent. */
  readonly firstAdminId?: () => Promise<string | null>;
}

/** The scope a caller needs to see and run published skills, as for `POST /api/v1/skills/{skill}/run`. */
export const SKILLS_SCOPE = 'skills:run';

/** The MCP tool name of a skill: `skill_` and its kebab-case name. */
export function skillToolName(skillName: string): string {
  return `skill_${skillName}`;
}

/**
 * Published skills as MCP tools. A skill's input schema is its variables schema and its description
 * its product description (`skillProductView`): the contract, never the steps or the recording. A call
 * replays the skill (deterministic when every value is known, guided otherwise) as a run of its own on
 * the event bus, and returns the replay's answer with its summary (mode, model calls, tokens, cost,
 * status), not its steps' arguments or outputs. A caller sees and runs only the published skills its
 * account owns (as on the REST API: another account's skill is not there at all), and only with
 * `skills:run`; the replay is the caller's run.
 */
export function createSkillToolSource(options: SkillToolSourceOptions): ExposedToolSource {
  async function publishedDocuments(caller: Principal): Promise<Map<string, { document: SkillDocument; reference: string }>> {
    const documents = new Map<string, { document: SkillDocument; reference: string }>();
    if (!caller.scopes.includes(SKILLS_SCOPE)) return documents;
    const firstAdminId = caller.via === 'operator' ? null : ((await options.firstAdminId?.()) ?? null);
    for (const reference of options.published) {
      const { idOrName, version } = parseSkillReference(reference);
      const record = await options.skills.get(idOrName, version);
      if (record === undefined || record.status !== 'active' || !ownsRecord(caller, record.userId, firstAdminId)) continue;
      const document = parseSkillDocument(record.document);
      documents.set(skillToolName(document.name), { document, reference });
    }
    return documents;
  }

  return {
    async list(caller): Promise<ExposedTool[]> {
      return [...(await publishedDocuments(caller))].map(([name, { document }]) => {
        const view = skillProductView(document);
        return { name, description: view.description, inputSchema: view.inputs_schema };
      });
    },
    async call(name, args, signal, caller): Promise<ExposedToolResult> {
      const published = (await publishedDocuments(caller)).get(name);
      if (published === undefined) return { text: `Skill tool "${name}" is no longer published.`, isError: true };
      const replay = await options.replay(published.reference, args, signal, caller.userId);
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
