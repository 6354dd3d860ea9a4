import { z } from 'zod';

/** `forge home --json`: which home is used and why. */
export const homeOutputSchema = z.object({ path: z.string(), source: z.string(), reason: z.string() }).strict();

const settingSchema = z
  .object({
    key: z.string(),
    variable: z.string(),
    value: z.string().nullable().describe('masked (********) for a secret'),
    source: z.string(),
    file: z.string().nullable(),
    default: z.string(),
    secret: z.boolean(),
  })
  .strict();

export const configListOutputSchema = z
  .object({
    home: homeOutputSchema,
    project_file: z.string(),
    project_file_exists: z.boolean().describe('Whether ./forge.config.json exists (`forge config set --project` creates it).'),
    home_file: z.string(),
    home_file_exists: z.boolean(),
    settings: z.array(settingSchema),
  })
  .strict();
export const configGetOutputSchema = settingSchema;
export const configSetOutputSchema = z.object({ key: z.string(), value: z.string().nullable(), file: z.string() }).strict();
export const configUnsetOutputSchema = z.object({ key: z.string(), file: z.string() }).strict();
export const initOutputSchema = z.object({ file: z.string(), set: z.array(z.string()), agents: z.array(z.string()).describe('The starter agents installed (none with --no-agents, or when they were there already).') }).strict();

export const doctorOutputSchema = z
  .object({
    ok: z.boolean(),
    checks: z.array(z.object({ check: z.string(), status: z.enum(['ok', 'failed', 'skipped', 'warning']), detail: z.string(), fix: z.string().optional() }).strict()),
  })
  .strict();

/** `forge serve --json`: where the API listens. */
export const serveOutputSchema = z
  .object({
    url: z.string(),
    openapi: z.string(),
    mcp_url: z.string().nullable(),
    allowed_hosts: z.array(z.string()),
    token_required: z.boolean().describe('Whether clients send FORGE_ADMIN_PASSWORD as a bearer token (auth password).'),
    auth: z.enum(['none', 'password', 'accounts']),
    open_signup: z.boolean(),
  })
  .strict();

export const runsDeleteOutputSchema = z.object({ deleted: z.array(z.object({ run_id: z.string(), log_file: z.string().nullable() }).strict()) }).strict();
export const skillRemoveOutputSchema = z.object({ removed: z.array(z.object({ id: z.string(), name: z.string(), versions: z.number().int().nonnegative() }).strict()) }).strict();
export const skillRenameOutputSchema = z.object({ id: z.string(), name: z.string(), previous_name: z.string(), version: z.number().int().positive() }).strict();
