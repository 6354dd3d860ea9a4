import { z } from 'zod';
import { RISK_LEVELS, policyDecisionKindSchema } from '../core/index.js';
import { policyConditionSchema, policyDocumentSchema, policyRuleSchema, toolPatternSchema } from '../policy/policy-document.js';
import { policyScopeSchema } from '../policy/policy-scope.js';

/** The bodies of the policy routes (`/api/v1/policy/*`): a change names its scope (default the installation's) and may say why. */
export const policyScopeQuerySchema = z.object({ scope: policyScopeSchema.default('installation') }).strict();
const changeShape = { scope: policyScopeSchema.default('installation'), message: z.string().min(1).max(500).optional() };
export const policySetRuleRequestSchema = z.object({ ...changeShape, rule: policyRuleSchema }).strict();
export const policyRemoveRuleRequestSchema = z.object({ ...changeShape, tool: toolPatternSchema, when: z.array(policyConditionSchema).min(1).optional() }).strict();
export const policySetDefaultRequestSchema = z.object({ ...changeShape, risk: z.enum(RISK_LEVELS), decision: policyDecisionKindSchema.nullable().describe('null removes the scope\'s default for this risk.') }).strict();
export const policyReplaceRequestSchema = z.object({ ...changeShape, document: policyDocumentSchema }).strict();
export const policyRollbackRequestSchema = z.object({ ...changeShape, version: z.number().int().positive() }).strict();
export const policyTestRequestSchema = z
  .object({
    tool: z.string().min(1).max(200),
    input: z.unknown().optional(),
    scopes: z.array(policyScopeSchema).max(10).optional().describe('Narrower scopes to apply too (agent:<slug>, deployment:<id>).'),
  })
  .strict();
