import type { z } from 'zod';
import {
  policyChangeSchema,
  policyChangeView,
  policyShowSchema,
  policyShowView,
  policyTestSchema,
  policyTestView,
  policyVersionView,
  policyVersionsSchema,
  type PolicyAuthor,
  type PolicyChange,
  type PolicyService,
} from '../../policy/index.js';
import type { ApiRoute, RouteContext } from './api-route.js';
import { requireAdmin } from './admin-only.js';
import { policyRemoveRuleRequestSchema, policyReplaceRequestSchema, policyRollbackRequestSchema, policyScopeQuerySchema, policySetDefaultRequestSchema, policySetRuleRequestSchema, policyTestRequestSchema } from '../../contract/index.js';

/** The installation's policy decides every account's calls: anyone signed in may read and test it, only an admin (with `policy:write`) changes it. */
const adminsOnly = (context: RouteContext): void => requireAdmin(context, "The policy is the installation's: only an admin changes it.");

function authorOf(context: RouteContext): string {
  return context.principal?.userId ?? 'operator';
}


/**
 * A route that changes a scope's policy: admins only (with `policy:write`), the body validated with its
 * schema, the change made by the service with the caller as author, answered with the new version.
 */
function changeRoute<Body extends { readonly message?: string | undefined }>(
  path: string,
  summary: string,
  body: z.ZodType<Body>,
  change: (policies: PolicyService, body: Body, author: PolicyAuthor) => Promise<PolicyChange>,
): ApiRoute {
  return {
    method: 'post',
    path,
    summary,
    access: 'policy:write',
    body,
    response: policyChangeSchema,
    async handle(context) {
      adminsOnly(context);
      const parsed = body.parse(context.body ?? {});
      const author = { author: authorOf(context), ...(parsed.message === undefined ? {} : { message: parsed.message }) };
      return policyChangeView(await change(context.runtime.policies, parsed, author));
    },
  };
}

export const policyRoutes: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/policy',
    summary: "A scope's policy in force, and the defaults under it.",
    access: 'signed-in',
    query: policyScopeQuerySchema,
    response: policyShowSchema,
    handle: async (context) => policyShowView(await context.runtime.policies.show(policyScopeQuerySchema.parse(context.query ?? {}).scope)),
  },
  {
    method: 'get',
    path: '/policy/versions',
    summary: "A scope's saved versions, newest first.",
    access: 'signed-in',
    query: policyScopeQuerySchema,
    response: policyVersionsSchema,
    async handle(context) {
      const { scope } = policyScopeQuerySchema.parse(context.query ?? {});
      return { scope, versions: (await context.runtime.policies.versions(scope)).map(policyVersionView) };
    },
  },
  {
    method: 'post',
    path: '/policy/test',
    summary: 'What would happen to a call, and why, without making it.',
    access: 'signed-in',
    body: policyTestRequestSchema,
    response: policyTestSchema,
    async handle(context) {
      const body = policyTestRequestSchema.parse(context.body ?? {});
      return policyTestView(await context.runtime.policies.test({ tool: body.tool, input: body.input ?? {}, ...(body.scopes === undefined ? {} : { scopes: body.scopes }) }));
    },
  },
  changeRoute('/policy/rules', 'Add a rule, or replace the one with the same tool and conditions (admin).', policySetRuleRequestSchema, (policies, body, author) => policies.setRule(body.scope, body.rule, author)),
  changeRoute('/policy/rules/remove', 'Remove the rule with this tool and these conditions (admin).', policyRemoveRuleRequestSchema, (policies, body, author) =>
    policies.removeRule(body.scope, { tool: body.tool, ...(body.when === undefined ? {} : { when: body.when }) }, author),
  ),
  changeRoute('/policy/defaults', "Set a scope's decision for one risk level (admin).", policySetDefaultRequestSchema, (policies, body, author) => policies.setDefault(body.scope, body.risk, body.decision, author)),
  changeRoute('/policy/replace', "Replace a scope's whole document (admin).", policyReplaceRequestSchema, (policies, body, author) => policies.replace(body.scope, body.document, author)),
  changeRoute('/policy/rollback', "Save an earlier version's document again as the newest (admin).", policyRollbackRequestSchema, (policies, body, author) => policies.rollback(body.scope, body.version, author)),
];
