import { z } from 'zod';
import { RISK_LEVELS, policyDecisionKindSchema } from '../core/index.js';
import { compileLinearPattern } from '../security/index.js';

/** A tool name, or a pattern of names with `*` for any run of characters (`mcp__github__*`, `file_*`, `*`). */
export const toolPatternSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_*-]{1,64}$/, 'must be a tool name, or a name pattern with * (letters, digits, _ and -, 1 to 64 characters)');

/** Where in a call's input a condition looks: a field name, or a dotted path into nested objects (`headers.authorization`). */
const argumentPathSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must name an input field, or a dotted path of field names (headers.authorization)');

const operators = ['matches', 'in', 'not_in', 'host_not_in', 'outside'] as const;

/**
 * One test on a call's input. Exactly one operator: `matches` (a regular expression, run in linear time;
 * backreferences and lookaround are refused), `in` / `not_in` (a list of values, compared without case),
 * `host_not_in` (the URL's host is none of these; `*.example.com` covers its subdomains), `outside` (the
 * path, relative ones taken from the workspace, is not inside this absolute folder). On a list field the
 * test holds when it holds for any element.
 */
export const policyConditionSchema = z
  .object({
    argument: argumentPathSchema,
    matches: z.string().min(1).max(1000).optional(),
    in: z.array(z.string()).min(1).optional(),
    not_in: z.array(z.string()).min(1).optional(),
    host_not_in: z.array(z.string().regex(/^(\*\.)?[a-zA-Z0-9.-]+$/, 'must be a host name, or *.domain for its subdomains')).min(1).optional(),
    outside: z.string().startsWith('/', 'must be an absolute folder').optional(),
  })
  .strict()
  .superRefine((condition, context) => {
    const given = operators.filter((operator) => condition[operator] !== undefined);
    if (given.length !== 1) {
      context.addIssue({ code: 'custom', message: `needs exactly one of ${operators.join(', ')} (got ${given.length === 0 ? 'none' : given.join(', ')})` });
    }
    if (condition.matches !== undefined && compileLinearPattern(condition.matches) === undefined) {
      context.addIssue({ code: 'custom', path: ['matches'], message: 'is not a pattern that runs in linear time (no backreferences or lookaround) or does not compile' });
    }
  });

export type PolicyCondition = z.infer<typeof policyConditionSchema>;

/** Per tool (or pattern): what happens to its calls, when every condition holds. */
export const policyRuleSchema = z
  .object({
    tool: toolPatternSchema,
    decision: policyDecisionKindSchema,
    /** All must hold for the rule to apply. */
    when: z.array(policyConditionSchema).min(1).optional(),
    /** Said to the model and the approver; a default is written from the rule when absent. */
    reason: z.string().min(1).max(500).optional(),
    /** For require_approval: how long the request waits, and an answer stays valid, in seconds. */
    approval_expires_seconds: z.number().int().positive().max(7 * 24 * 3600).optional(),
  })
  .strict()
  .refine((rule) => rule.approval_expires_seconds === undefined || rule.decision === 'require_approval', {
    message: 'approval_expires_seconds applies to require_approval rules only',
    path: ['approval_expires_seconds'],
  });

export type PolicyRule = z.infer<typeof policyRuleSchema>;

export const POLICY_DOCUMENT_VERSION = 1;

/** One scope's policy: decisions by risk level and rules per tool. Data only: it survives storage and restarts unchanged. */
export const policyDocumentSchema = z
  .object({
    version: z.literal(POLICY_DOCUMENT_VERSION),
    defaults: z.object(Object.fromEntries(RISK_LEVELS.map((risk) => [risk, policyDecisionKindSchema.optional()])) as Record<(typeof RISK_LEVELS)[number], z.ZodOptional<typeof policyDecisionKindSchema>>).strict().default({}),
    rules: z.array(policyRuleSchema).max(1000).default([]),
  })
  .strict();

export type PolicyDocument = z.infer<typeof policyDocumentSchema>;

export const emptyPolicyDocument: PolicyDocument = { version: POLICY_DOCUMENT_VERSION, defaults: {}, rules: [] };

/** What every installation starts from: low and medium risk run, high risk asks, critical is blocked. */
export const BUILT_IN_DEFAULTS = { low: 'allow', medium: 'allow', high: 'require_approval', critical: 'block' } as const;

/** Whether two rules are the same rule (same tool pattern, same conditions), so that setting one replaces the other. */
export function sameRuleKey(left: PolicyRule, right: PolicyRule): boolean {
  return left.tool === right.tool && JSON.stringify(left.when ?? []) === JSON.stringify(right.when ?? []);
}
