import { z } from 'zod';
import { RISK_LEVELS, policyDecisionKindSchema, type PolicyVersion } from '../core/index.js';
import { policyDocumentSchema, policyRuleSchema } from './policy-document.js';
import type { PolicyChange, PolicyShown, PolicyTest } from './policy-service.js';

/** The JSON shapes of policies, shared by `forge policy … --json` and the API. */
export const policyShowSchema = z
  .object({
    scope: z.string(),
    version: z.number().int().positive().nullable().describe('The version in force; null when the scope was never saved.'),
    document: policyDocumentSchema,
    author: z.string().nullable(),
    created_at: z.string().nullable(),
    built_in_defaults: z.object(Object.fromEntries(RISK_LEVELS.map((risk) => [risk, policyDecisionKindSchema])) as Record<(typeof RISK_LEVELS)[number], typeof policyDecisionKindSchema>).strict(),
    built_in_rules: z.array(policyRuleSchema).describe('Rules under every scope; a scope\'s rule for the same tool overrides them.'),
    configuration_requires_approval: z.array(z.string()).describe('Tools FORGE_REQUIRE_APPROVAL sends for approval.'),
  })
  .strict();

export const policyChangeSchema = z
  .object({ scope: z.string(), version: z.number().int().positive(), document: policyDocumentSchema, warnings: z.array(z.string()) })
  .strict();

export const policyVersionSchema = z
  .object({ scope: z.string(), version: z.number().int().positive(), author: z.string(), message: z.string(), created_at: z.string(), document: z.unknown() })
  .strict();

export const policyVersionsSchema = z.object({ scope: z.string(), versions: z.array(policyVersionSchema) }).strict();

export const policyTestSchema = z
  .object({
    tool: z.string(),
    risk: z.enum(RISK_LEVELS),
    side_effect: z.enum(['read', 'write']),
    decision: policyDecisionKindSchema,
    reason: z.string(),
    rule: z.string().describe('The rule that decided.'),
    approval_expires_seconds: z.number().int().positive().nullable(),
    trace: z.array(z.string()).describe('Every layer, broadest first, and what it said.'),
    layers: z.array(z.object({ scope: z.string(), version: z.number().int().positive().nullable() }).strict()),
  })
  .strict();

export function policyShowView(shown: PolicyShown): z.infer<typeof policyShowSchema> {
  return {
    scope: shown.scope,
    version: shown.version,
    document: shown.document,
    author: shown.author,
    created_at: shown.createdAt,
    built_in_defaults: { ...shown.builtInDefaults },
    built_in_rules: [...shown.builtInRules],
    configuration_requires_approval: [...shown.configurationRequiresApproval],
  };
}

export function policyChangeView(change: PolicyChange): z.infer<typeof policyChangeSchema> {
  return { scope: change.scope, version: change.version, document: change.document, warnings: [...change.warnings] };
}

export function policyVersionView(version: PolicyVersion): z.infer<typeof policyVersionSchema> {
  return { scope: version.scope, version: version.version, author: version.author, message: version.message, created_at: version.createdAt, document: version.document };
}

export function policyTestView(test: PolicyTest): z.infer<typeof policyTestSchema> {
  return {
    tool: test.tool,
    risk: test.risk,
    side_effect: test.sideEffect,
    decision: test.verdict.decision,
    reason: test.verdict.reason,
    rule: test.verdict.rule,
    approval_expires_seconds: test.verdict.approvalExpiresSeconds ?? null,
    trace: [...test.trace],
    layers: test.layers.map((layer) => ({ ...layer })),
  };
}
