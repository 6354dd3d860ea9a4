import { z } from 'zod';
import { ForgeError } from './errors.js';

/**
 * Where a run sits in a larger piece of work: the run that started it and the node of that run's graph
 * it runs (an automation's step, a mission's cycle). Null when it has none, as every run started by a
 * person has today.
 */
const lineage = {
  parent_run_id: z.string().min(1).nullable().default(null),
  node_id: z.string().min(1).nullable().default(null),
};

const policyRules = z.array(z.unknown()).max(100);

/** What an agent or convergence run is asked: the task, its model, tools, rules and conversation. */
const taskFields = {
  task: z.string().min(1),
  /** A model slug; default FORGE_MODEL, else the first vendor with a key. */
  model: z.string().min(1).optional(),
  /** The tools the run may use, by exact name; default every tool in the catalog when it starts. */
  tools: z.array(z.string().min(1)).optional(),
  max_iterations: z.number().int().positive().optional(),
  /** Continue this stored conversation; a new one is created when absent. */
  conversation_id: z.string().min(1).optional(),
  /** The run's own policy rules: they only tighten what the installation decided. */
  policy_rules: policyRules.optional(),
  /** A system prompt instead of Forge's (the library). */
  system: z.string().min(1).optional(),
  /** `fresh` wipes the toolbox before the run; `keep` (the default) reuses it. */
  toolbox: z.enum(['keep', 'fresh']).optional(),
};

/** A plain agent run: the loop with the catalog's tools. */
export const agentTaskRequestSchema = z.object({ kind: z.literal('agent_task'), ...lineage, ...taskFields }).strict();

/** A convergence-gated run: one tool per turn, `request_tool`, a plan. */
export const convergeTaskRequestSchema = z.object({ kind: z.literal('converge_task'), ...lineage, ...taskFields }).strict();

/** A run of an agent definition (`slug`, its active version, or `slug@version`, pinned when it is queued). */
export const agentDefinitionRequestSchema = z
  .object({
    kind: z.literal('agent_definition'),
    ...lineage,
    agent: z.string().min(1),
    task: z.string().min(1),
    /** Parameter values as text, read as their parameters' types. */
    params: z.record(z.string(), z.string()).optional(),
    /** Where the run is: picks the definition's preamble and postamble; default `background`. */
    context: z.enum(['chat', 'background', 'automation']).optional(),
    model: z.string().min(1).optional(),
    max_iterations: taskFields.max_iterations,
    conversation_id: z.string().min(1).optional(),
    policy_rules: policyRules.optional(),
    toolbox: taskFields.toolbox,
  })
  .strict();

/** A replay of a stored skill (`name`, `name@version` or id) with its inputs. */
export const skillReplayRequestSchema = z
  .object({
    kind: z.literal('skill_replay'),
    ...lineage,
    skill: z.string().min(1),
    inputs: z.record(z.string(), z.unknown()).default({}),
    mode: z.enum(['auto', 'deterministic', 'guided']).optional(),
    /** Resolve every value, run the reads, make no write. */
    dry_run: z.boolean().optional(),
    /** Ask the model for a summary of the fresh results at the end (one metered call). */
    summarize: z.boolean().optional(),
    /** The model for the summary, and for the rescue when FORGE_RESCUE_MODEL is unset. */
    model: z.string().min(1).optional(),
    policy_rules: policyRules.optional(),
    /** The request in the user's words, shown to the rescue. */
    request: z.string().optional(),
    /** Read the inputs from this free-text task inside the run (`forge run --skills`) instead of `inputs`. */
    extract_from: z.object({ task: z.string().min(1), template_inputs: z.record(z.string(), z.string()).optional() }).strict().optional(),
    /** Why the skill was chosen for a task: opens the run's log as a `skill-match` event. */
    match_reason: z.string().optional(),
  })
  .strict();

/** One tool called without a model, as a run of its own. */
export const toolCallRequestSchema = z.object({ kind: z.literal('tool_call'), ...lineage, tool: z.string().min(1), input: z.unknown() }).strict();

/** Going on with a waiting or interrupted run from its last checkpoint (by id or unique prefix). */
export const resumeRequestSchema = z.object({ kind: z.literal('resume'), ...lineage, run_id: z.string().min(1) }).strict();

/**
 * The one description of a run, whoever asks for it (the CLI, the API, Forge's MCP endpoint, a
 * schedule, a worker, the library): JSON that crosses to a worker as it is. Every entrance hands one
 * to the run service's front door (`runs.submit`), which checks it and refuses what cannot run, the same
 * way whatever the entrance, before anything is recorded.
 */
export const runRequestSchema = z.discriminatedUnion('kind', [
  agentTaskRequestSchema,
  convergeTaskRequestSchema,
  agentDefinitionRequestSchema,
  skillReplayRequestSchema,
  toolCallRequestSchema,
  resumeRequestSchema,
]);

/** A run request as checked: lineage filled in (null when none). */
export type RunRequest = z.output<typeof runRequestSchema>;
/** A run request as written by a caller: lineage and inputs may be left out. */
export type RunRequestInput = z.input<typeof runRequestSchema>;
export type RunRequestKind = RunRequest['kind'];
export type RunRequestOf<Kind extends RunRequestKind> = Extract<RunRequest, { kind: Kind }>;

export const RUN_REQUEST_KINDS = ['agent_task', 'converge_task', 'agent_definition', 'skill_replay', 'tool_call', 'resume'] as const satisfies readonly RunRequestKind[];

/** Kinds kept for the pillars that follow (automations, missions, evaluations); no run of them exists yet. */
export const RESERVED_RUN_REQUEST_KINDS = ['automation', 'automation_node', 'mission_cycle', 'eval_item'] as const;

/** A run request that does not validate: what is wrong with it, field by field. */
export class RunRequestError extends ForgeError {
  readonly issues: string[];
  constructor(issues: string[], hint = `A run request is one of: ${RUN_REQUEST_KINDS.join(', ')}; see docs/architecture.md (the front door).`) {
    super({ name: 'RunRequestError', message: `The run request is not valid: ${issues.join('; ')}.`, hint });
    this.issues = issues;
  }
}

/** Checks a run request (from code or JSON); a `RunRequestError` names each bad field, or the reserved kind it asks for. */
export function parseRunRequest(value: unknown): RunRequest {
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  if (typeof kind === 'string' && (RESERVED_RUN_REQUEST_KINDS as readonly string[]).includes(kind)) {
    throw new RunRequestError([`kind "${kind}" is reserved for a part of Forge that does not run yet`], `Runs of these kinds exist today: ${RUN_REQUEST_KINDS.join(', ')}.`);
  }
  if (typeof kind !== 'string' || !(RUN_REQUEST_KINDS as readonly string[]).includes(kind)) {
    throw new RunRequestError([`kind ${JSON.stringify(kind ?? null)} is not a kind of run (${RUN_REQUEST_KINDS.join(', ')})`]);
  }
  const parsed = runRequestSchema.safeParse(value);
  if (!parsed.success) throw new RunRequestError(parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(request)'}: ${issue.message}`));
  return parsed.data;
}

/**
 * A request as it crosses to a worker or waits in a schedule: the request and the account it runs for
 * (null: the installation's operator).
 */
export const runSubmissionSchema = z.object({ request: runRequestSchema, user_id: z.string().min(1).nullable() }).strict();
export type RunSubmission = z.output<typeof runSubmissionSchema>;
