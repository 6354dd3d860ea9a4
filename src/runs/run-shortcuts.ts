import type { AnyEventBody, ApprovalGate } from '../core/index.js';
import type { ResolvedModel } from '../llm/index.js';
import { matchSkillForTask, type ReplayModeOption, type SkillDocument } from '../skills/index.js';
import type { AgentContext } from '../agents/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import type { RunTaskResult } from './task-runs.js';
import type { RunSkillResult } from './skill-runs.js';
import type { ToolCallResult } from './tool-calls.js';

/**
 * The library's shortcuts: each builds a run request, hands it to the front door's `execute` (the run
 * runs in this process) and awaits its result. They take what a caller in code has besides data (a
 * model built in code, an approval gate, a signal); everything else is the request's.
 */

export interface RunTaskOptions {
  readonly task: string;
  /** A slug, or a model built in code; default FORGE_MODEL or the first vendor with a key. */
  readonly model?: string | ResolvedModel;
  readonly maxIterations?: number;
  readonly system?: string;
  /** The tools the run may use, by exact name; a name no tool has is refused (`UnknownToolsError`) before any run exists. */
  readonly tools?: readonly string[];
  /** Continue this persisted conversation; a new one is created when absent. */
  readonly conversationId?: string;
  readonly signal?: AbortSignal;
  readonly maxRetries?: number;
  /** Run the convergence-gated loop (`forge run --converge`): one tool per turn, request_tool, plan. */
  readonly converge?: boolean;
  /** `fresh` wipes the toolbox before the run; `keep` (the default) reuses it. */
  readonly toolbox?: 'keep' | 'fresh';
  /** Who answers this run's approvals; default the runtime's (which refuses: nobody is attached). */
  readonly approvals?: ApprovalGate;
  /** The account the run (and a new conversation) belongs to; none for the CLI's runs. */
  readonly userId?: string | null;
  /** The run's own policy rules (`forge run --block`, `--require-approval`): they only tighten, and survive a resume. */
  readonly policyRules?: readonly unknown[];
  /** Events that open the run's log before the loop starts (e.g. why no stored skill replaced the agent). */
  readonly preludeEvents?: readonly AnyEventBody[];
}

export interface RunAgentOptions extends Omit<RunTaskOptions, 'system' | 'tools' | 'converge'> {
  /** `slug` (its active version) or `slug@version`. */
  readonly agent: string;
  /** Parameter values as text (`--param k=v`), read as their parameters' types. */
  readonly params?: Readonly<Record<string, string>>;
  /** Where the run is: `background` (a command), `chat`, `automation`; picks the preamble and postamble. Default `background`. */
  readonly context?: AgentContext;
}

export interface RunSkillOptions {
  /** A stored skill's id, name or `name@n`, or a document in hand. */
  readonly skill: string | SkillDocument;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly mode?: ReplayModeOption;
  /** The request in the user's words, shown to the rescue. */
  readonly request?: string;
  /** Resolve every value, run the reads, make no write: report what each write would send. */
  readonly dryRun?: boolean;
  /** Ask a model for a summary of the fresh results at the end (one metered call). */
  readonly summarize?: boolean;
  /** The model for the summary, and for the rescue when FORGE_RESCUE_MODEL is unset. */
  readonly model?: string | ResolvedModel;
  /** A rescue model built in code (tests, benchmarks); FORGE_RESCUE_MODEL and the run's model otherwise. */
  readonly rescueModel?: ResolvedModel;
  readonly signal?: AbortSignal;
  /** The account the replay's run belongs to; none for the CLI's. */
  readonly userId?: string | null;
  /** The run's own policy rules (they only tighten), as for `runTask`. */
  readonly policyRules?: readonly unknown[];
}

export interface CallToolOptions {
  readonly name: string;
  readonly input: unknown;
  readonly signal?: AbortSignal;
  /** The account the call's run belongs to; none for the CLI's. */
  readonly userId?: string | null;
}

export interface ResumeTaskOptions {
  readonly signal?: AbortSignal;
  /** Who answers approvals the resumed run asks for; default the store (a paused run) or the runtime's. */
  readonly approvals?: ApprovalGate;
  /** A model built in code instead of the run's own slug (tests, the library). */
  readonly model?: ResolvedModel;
  readonly maxRetries?: number;
}

/** The parts of options that are not data: they stay in this process. */
function extrasOf(options: { signal?: AbortSignal; approvals?: ApprovalGate; maxRetries?: number; model?: string | ResolvedModel; preludeEvents?: readonly AnyEventBody[] }) {
  return {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(typeof options.model === 'object' ? { model: options.model } : {}),
    ...(options.preludeEvents === undefined ? {} : { preludeEvents: options.preludeEvents }),
  };
}

function slugOf(model: string | ResolvedModel | undefined): { model?: string } {
  return typeof model === 'string' ? { model } : {};
}

/** An agent or convergence run, awaited: the request `agent_task` (or `converge_task`). */
export async function runTask(runtime: ForgeRuntime, options: RunTaskOptions): Promise<RunTaskResult> {
  const request = {
    kind: options.converge === true ? 'converge_task' : 'agent_task',
    task: options.task,
    ...slugOf(options.model),
    ...(options.tools === undefined ? {} : { tools: [...options.tools] }),
    ...(options.maxIterations === undefined ? {} : { max_iterations: options.maxIterations }),
    ...(options.conversationId === undefined ? {} : { conversation_id: options.conversationId }),
    ...(options.policyRules === undefined ? {} : { policy_rules: [...options.policyRules] }),
    ...(options.system === undefined ? {} : { system: options.system }),
    ...(options.toolbox === undefined ? {} : { toolbox: options.toolbox }),
  } as const;
  return (await runtime.runs.execute(request, { userId: options.userId ?? null }, extrasOf(options))).result;
}

/** A run of an agent definition, awaited: the request `agent_definition` (`forge run --agent`). */
export async function runAgentTask(runtime: ForgeRuntime, options: RunAgentOptions): Promise<RunTaskResult> {
  const request = {
    kind: 'agent_definition',
    agent: options.agent,
    task: options.task,
    ...slugOf(options.model),
    ...(options.params === undefined ? {} : { params: { ...options.params } }),
    ...(options.context === undefined ? {} : { context: options.context }),
    ...(options.maxIterations === undefined ? {} : { max_iterations: options.maxIterations }),
    ...(options.conversationId === undefined ? {} : { conversation_id: options.conversationId }),
    ...(options.policyRules === undefined ? {} : { policy_rules: [...options.policyRules] }),
    ...(options.toolbox === undefined ? {} : { toolbox: options.toolbox }),
  } as const;
  return (await runtime.runs.execute(request, { userId: options.userId ?? null }, extrasOf(options))).result;
}

/** A skill replay, awaited: the request `skill_replay` (a document in hand is replayed as it is). */
export async function runSkill(runtime: ForgeRuntime, options: RunSkillOptions): Promise<RunSkillResult> {
  const document = typeof options.skill === 'string' ? undefined : options.skill;
  const request = {
    kind: 'skill_replay',
    skill: typeof options.skill === 'string' ? options.skill : options.skill.name,
    inputs: { ...options.inputs },
    ...slugOf(options.model),
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.dryRun === true ? { dry_run: true } : {}),
    ...(options.summarize === true ? { summarize: true } : {}),
    ...(options.request === undefined ? {} : { request: options.request }),
    ...(options.policyRules === undefined ? {} : { policy_rules: [...options.policyRules] }),
  } as const;
  const extras = { ...extrasOf(options), ...(options.rescueModel === undefined ? {} : { rescueModel: options.rescueModel }), ...(document === undefined ? {} : { skillDocument: document }) };
  return (await runtime.runs.execute(request, { userId: options.userId ?? null }, extras)).result;
}

/** What `forge run --skills` did: replayed (or refused to replay) a matching skill, or ran the full agent. */
export type SkillAwareRunResult = (RunSkillResult & { readonly replayed_skill: string }) | (RunTaskResult & { readonly replayed_skill: null });

/**
 * `forge run --skills`: chooses the stored skill for a free-text task (see `matchSkillForTask`: a
 * wrong match must stay rarer than a missed one), and runs the request `skill_replay` that reads its
 * inputs from the task (a task that does not say a required input is refused: nothing runs, the run says
 * which input). When no skill fits, the full agent runs. Either way the run's log opens with a
 * `skill-match` event.
 */
export async function runTaskWithSkills(runtime: ForgeRuntime, options: RunTaskOptions & Pick<RunSkillOptions, 'rescueModel'>): Promise<SkillAwareRunResult> {
  // A broken stored skill cannot match; `forge skill list` shows why.
  const documents = (await runtime.skills.list()).flatMap((entry) => (entry.record.status === 'active' && entry.document !== null ? [entry.document] : []));
  const match = matchSkillForTask(options.task, documents);
  if (match.matched) {
    const request = {
      kind: 'skill_replay',
      skill: match.skill.name,
      inputs: {},
      extract_from: { task: options.task, ...(match.inputs === undefined ? {} : { template_inputs: { ...match.inputs } }) },
      request: options.task,
      match_reason: match.reason,
      ...slugOf(options.model),
      ...(options.policyRules === undefined ? {} : { policy_rules: [...options.policyRules] }),
    } as const;
    const extras = { ...extrasOf({ ...options, approvals: undefined }), ...(options.rescueModel === undefined ? {} : { rescueModel: options.rescueModel }) };
    const replayed = await (await runtime.runs.execute(request, { userId: options.userId ?? null }, extras)).result;
    return { ...replayed, replayed_skill: match.skill.name };
  }
  const ran = await runTask(runtime, { ...options, preludeEvents: [...(options.preludeEvents ?? []), { type: 'skill-match', decision: 'fallback', skill: null, reason: match.reason, inputs: {} }] });
  return { ...ran, replayed_skill: null };
}

/** A direct tool call, awaited: the request `tool_call` (`forge tools call`). */
export async function callTool(runtime: ForgeRuntime, options: CallToolOptions): Promise<ToolCallResult> {
  const extras = options.signal === undefined ? {} : { signal: options.signal };
  return (await runtime.runs.execute({ kind: 'tool_call', tool: options.name, input: options.input }, { userId: options.userId ?? null }, extras)).result;
}

/** Goes on with a stored run from its last checkpoint, awaited: the request `resume` (`forge run --resume`). */
export async function resumeTask(runtime: ForgeRuntime, reference: string, options: ResumeTaskOptions = {}): Promise<RunTaskResult> {
  return (await runtime.runs.execute({ kind: 'resume', run_id: reference }, { userId: null }, extrasOf(options))).result;
}
