import { z } from 'zod';
import { TOOL_NAME_PATTERN, toolStatusSchema } from '../../core/index.js';
import { capabilityNames, type CapabilityName } from '../sandbox/index.js';

/**
 * One tool of the toolbox, as the store holds it and a manifest carries it. `status` moves draft → testing → promoted | failed;
 * only a `promoted` entry is ever registered, and a `failed` one stays listed with the reasons it failed.
 * `source` and `test` are the exact modules the gate judged; `input_schema` is the JSON Schema from the
 * module's own `meta`, from which the model-facing schema is derived (a model never writes it).
 */
export const toolboxEntrySchema = z.object({
  /** A registry name: it also names the tool's folder under `files/`, so it can never be a path. */
  name: z.string().regex(TOOL_NAME_PATTERN, { error: 'must be a tool name matching ^[a-zA-Z0-9_-]{1,64}$' }),
  description: z.string(),
  status: toolStatusSchema,
  /** `synthesized` by the author/tester models, or `added` by hand with `forge tools add`. */
  origin: z.enum(['synthesized', 'added']),
  source: z.string(),
  test: z.string(),
  /** Revisions after the first draft (at most 3). */
  revisions: z.number().int().nonnegative(),
  /** Successful calls of the promoted tool, across runs and processes (counted by the store). */
  uses: z.number().int().nonnegative(),
  capabilities: z.array(z.enum(capabilityNames as [CapabilityName, ...CapabilityName[]])),
  /** Capabilities the tool used in its passing test run; always a subset of `capabilities`. */
  capabilities_used: z.array(z.enum(capabilityNames as [CapabilityName, ...CapabilityName[]])),
  input_schema: z.record(z.string(), z.unknown()),
  /** Why the last verification failed, one line per reason; empty once promoted. */
  failures: z.array(z.string()),
  /** Dollars the author and tester models cost to make this tool; null when a price is unknown. */
  cost_usd: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * The account whose toolbox holds it: its runs alone are offered it (a plain account's synthesized
   * tool stays there until an admin promotes it); null: the installation's, offered to every run.
   */
  owner: z.string().nullable().default(null),
});

export type ToolboxEntry = z.infer<typeof toolboxEntrySchema>;
export type ToolboxStatus = ToolboxEntry['status'];
