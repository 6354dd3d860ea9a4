import { z } from 'zod';
import { toolStatusSchema } from '../../core/index.js';
import { toolboxEntrySchema } from '../../synthesis/toolbox/index.js';
import { anyJsonSchema, costSchema, durationSchema, nestedErrorSchema } from './common-schemas.js';

const riskSchema = z.enum(['low', 'medium', 'high', 'critical']);
const sideEffectSchema = z.enum(['read', 'write']);
const capabilitiesSchema = toolboxEntrySchema.shape.capabilities;
/** A toolbox entry, its cost a figure like every other. */
const toolboxEntryOutputSchema = toolboxEntrySchema.extend({ cost_usd: costSchema });

export const toolsListOutputSchema = z.object({
  tools: z.array(z.object({ name: z.string(), risk: riskSchema, side_effect: sideEffectSchema, description: z.string(), scope: z.enum(['installation', 'account']).describe('installation: offered to every run; account: an account\'s own toolbox tool') })),
  toolbox: z.array(toolboxEntryOutputSchema.pick({ name: true, status: true, origin: true, revisions: true, uses: true, capabilities: true, cost_usd: true, failures: true, owner: true })),
  unreadable: z.array(z.object({ name: z.string(), issues: z.array(z.string()), hint: z.string() })).describe('toolbox entries the store holds damaged: what is wrong and the recovery command'),
});

export const toolsShowOutputSchema = z.object({
  name: z.string(),
  description: z.string(),
  registered: z.boolean(),
  risk: riskSchema.optional(),
  side_effect: sideEffectSchema.optional(),
  input_schema: anyJsonSchema.describe('the JSON Schema of the tool input'),
  toolbox: toolboxEntryOutputSchema.optional(),
});

export const toolsAddOutputSchema = z.object({ name: z.string(), status: toolStatusSchema, capabilities: capabilitiesSchema, capabilities_used: capabilitiesSchema });

export const toolsTestOutputSchema = z.object({ name: z.string(), status: toolStatusSchema, passed: z.boolean(), failures: z.array(z.string()), capabilities_used: capabilitiesSchema });

export const toolsRemoveOutputSchema = z.object({ removed: z.string() });

export const toolsPromoteOutputSchema = z.object({ promoted: z.string(), status: toolStatusSchema, from_account: z.string().nullable().describe('the account whose toolbox held it; null when it was the installation\'s already') });

export const toolsImportOutputSchema = z.object({ imported: z.array(z.object({ name: z.string(), status: toolStatusSchema, uses: z.number().int().nonnegative() })) });

/** `forge tools call`: the call's outcome as a one-step run. */
export const toolsCallOutputSchema = z.object({
  run_id: z.string(),
  log_file: z.string(),
  ok: z.boolean(),
  call_id: z.string(),
  tool: z.string(),
  input: anyJsonSchema,
  output: z.string().describe('the result as a model reads it (capped, untrusted content wrapped), or the error text'),
  truncated: z.boolean(),
  untrusted: z.boolean(),
  duration_ms: durationSchema,
  error: nestedErrorSchema.optional().describe('when ok is false'),
  awaiting_approval: z.literal(true).optional().describe('the call did not run: it waits for an approval'),
});
