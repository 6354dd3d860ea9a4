import { z } from 'zod';
import { errorInfoSchema, planStepStatusSchema } from './events.js';
import { ForgeError } from './errors.js';

/**
 * A loop run's state at a turn boundary: everything needed to go on from there in another process
 * (`forge run --resume`). Checkpointed to the store at every turn boundary, before any side-effecting
 * call of the turn runs. One schema defines it, validates it on load and documents it; an older
 * version is upgraded on load, a newer or malformed one is refused by name.
 *
 * Version 1:
 * - `messages`: the loop's whole prompt history after the system prompt (conversation history, the
 *   task, every assistant turn and tool result), in the AI SDK's provider-neutral message format.
 * - `pending`: the tool calls of the last assistant turn that have no result in `messages` yet; on
 *   resume each is answered from its recorded result, run when it never started, or, when it is a
 *   side-effecting call that started without a recorded result, the run fails `interrupted` naming it.
 * - `tools`: the catalog tools of the run's set, by name (the loop's own tools are added by its kind).
 * - `totals`: the model calls made so far, so the resumed run's `run-end` counts them all.
 *
 * Version 2: `model` is the model the run started with, whole, so that any process resumes it with the
 * same one: its slug, the base URL an `openai-compatible:<model>@<url>` slug (or
 * FORGE_OPENAI_COMPATIBLE_BASE_URL) gave it, and its sampling settings. A version 1 state (`model` a
 * slug) loads as that slug with no base URL and no settings.
 */
export const RUN_STATE_VERSION = 2;

const contentPartSchema = z.looseObject({ type: z.string().min(1) });

export const loopMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.array(contentPartSchema) }),
  z.object({ role: z.literal('assistant'), content: z.array(contentPartSchema) }),
  z.object({ role: z.literal('tool'), content: z.array(contentPartSchema) }),
]);

export const runStepSchema = z.object({
  call_id: z.string(),
  iteration: z.number().int(),
  tool: z.string(),
  input: z.unknown(),
  ok: z.boolean(),
  output: z.string(),
  error: errorInfoSchema.nullable(),
  duration_ms: z.number().nonnegative(),
});

export const pendingCallSchema = z.object({
  call_id: z.string().min(1),
  /** The name as the model wrote it. */
  tool: z.string(),
  input: z.unknown(),
});

/** The model a run started with: what resolves it again, and how it is sampled. */
export const runModelSchema = z.object({
  /** The slug without its base URL (`openai-compatible:llama3`), as the run's record names it. */
  slug: z.string().min(1),
  /** The base URL of an OpenAI-compatible server (without credentials); null for every other provider. */
  base_url: z.string().regex(/^https?:\/\//, 'an http(s) URL').nullable(),
  settings: z.object({ temperature: z.number().optional(), max_output_tokens: z.number().int().positive().optional() }).strict(),
});
export type RunModel = z.infer<typeof runModelSchema>;

const runStateFields = {
  format: z.literal('forge-run-state'),
  run_id: z.string().min(1),
  kind: z.enum(['agent', 'converge']),
  task: z.string(),
  /** The caller's system prompt, when it replaced the default. */
  system: z.string().nullable(),
  conversation_id: z.string().nullable(),
  tools: z.array(z.string()),
  max_iterations: z.number().int().positive(),
  /** Model turns completed. */
  turn: z.number().int().nonnegative(),
  messages: z.array(loopMessageSchema),
  steps: z.array(runStepSchema),
  pending: z.array(pendingCallSchema),
  last_text: z.string(),
  totals: z.object({
    llm_calls: z.number().int().nonnegative(),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    cost_usd: z.number().nullable(),
  }),
  /** Convergence runs only: the plan, the halt rule's streak, syntheses and warnings so far. */
  converge: z
    .object({
      plan: z.array(z.object({ id: z.string(), title: z.string(), status: planStepStatusSchema })),
      stable_streak: z.number().int().nonnegative(),
      syntheses: z.number().int().nonnegative(),
      warnings: z.array(z.string()),
    })
    .nullable(),
};

export const runStateSchema = z.object({ ...runStateFields, version: z.literal(RUN_STATE_VERSION), model: runModelSchema });

/** Version 1, read and upgraded on load. */
const runStateV1Schema = z.object({ ...runStateFields, version: z.literal(1), model: z.string().min(1) });

export type RunState = z.infer<typeof runStateSchema>;
export type PendingCall = z.infer<typeof pendingCallSchema>;

/** A stored run state that cannot be used: malformed, or written by a newer Forge. */
export class RunStateError extends ForgeError {
  constructor(runId: string, problem: string, hint: string) {
    super({ name: 'RunStateError', message: `The saved state of run ${runId} cannot be resumed: ${problem}.`, hint });
  }
}

/**
 * Reads a stored run state of any known version, validating it with its schema and upgrading it to the
 * current one. A newer version is refused (upgrade Forge), a malformed one names the first fields that are wrong.
 */
export function parseRunState(runId: string, raw: unknown): RunState {
  const version = typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version > RUN_STATE_VERSION) {
    throw new RunStateError(runId, `it is version ${version}; this Forge reads up to version ${RUN_STATE_VERSION}`, 'Resume it with the newer Forge that wrote it.');
  }
  const parsed = version === 1 ? runStateV1Schema.safeParse(raw) : runStateSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.length === 0 ? '(state)' : issue.path.join('.')}: ${issue.message}`);
    throw new RunStateError(runId, `its checkpoint is malformed (${issues.join('; ')})`, 'The run cannot go on from it; run the task again.');
  }
  if (parsed.data.run_id !== runId) throw new RunStateError(runId, `its checkpoint belongs to run ${parsed.data.run_id}`, 'The store is inconsistent; run the task again.');
  return parsed.data.version === 1 ? upgradeV1(parsed.data) : parsed.data;
}

function upgradeV1(state: z.infer<typeof runStateV1Schema>): RunState {
  return { ...state, version: RUN_STATE_VERSION, model: { slug: state.model, base_url: null, settings: {} } };
}
