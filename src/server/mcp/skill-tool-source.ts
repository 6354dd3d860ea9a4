import { randomBytes } from 'node:crypto';
import type { ApprovalGate, GuardedFetch, Policy, SkillStore, UtilityModel } from '../../core/index.js';
import { createRunEmitter, type InProcessEventBus } from '../../events/index.js';
import { CostMeter } from '../../llm/index.js';
import { parseSkillDocument, parseSkillReference, replaySkill, skillProductView, type SkillDocument } from '../../skills/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { ExposedTool, ExposedToolResult, ExposedToolSource } from './exposed-tool-source.js';

export interface SkillToolSourceOptions {
  readonly skills: SkillStore;
  /** Skills published over MCP, by name or `name@version`. Nothing is published unless named; a stale skill is left out. */
  readonly published: readonly string[];
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  readonly approvals: ApprovalGate;
  readonly bus: InProcessEventBus;
  readonly fetch: GuardedFetch;
  /** The metered rescue model for guided replays; without one, a guided replay resolves without a model. */
  readonly rescueModel?: UtilityModel;
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
  async function publishedDocuments(): Promise<Map<string, SkillDocument>> {
    const documents = new Map<string, SkillDocument>();
    for (const name of options.published) {
      const { idOrName, version } = parseSkillReference(name);
      const record = await options.skills.get(idOrName, version);
      if (record === undefined || record.status !== 'active') continue;
      const document = parseSkillDocument(record.document);
      documents.set(skillToolName(document.name), document);
    }
    return documents;
  }

  return {
    async list(): Promise<ExposedTool[]> {
      return [...(await publishedDocuments())].map(([name, document]) => {
        const view = skillProductView(document);
        return { name, description: view.description, inputSchema: view.inputs_schema };
      });
    },
    async call(name, args, signal): Promise<ExposedToolResult> {
      const document = (await publishedDocuments()).get(name);
      if (document === undefined) return { text: `Skill tool "${name}" is no longer published.`, isError: true };
      const emitter = createRunEmitter(options.bus, `mcp-skill-${randomBytes(6).toString('hex')}`);
      const replay = await replaySkill({
        document,
        inputs: args,
        mode: 'auto',
        registry: options.registry,
        policy: options.policy,
        approvals: options.approvals,
        emitter,
        meter: new CostMeter(emitter.runId),
        toolContext: { fetch: options.fetch, utilityModel: undefined },
        signal,
        ...(options.rescueModel === undefined ? {} : { rescueModel: options.rescueModel }),
      });
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
