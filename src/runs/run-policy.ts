import { z } from 'zod';
import { POLICY_DOCUMENT_VERSION, PolicyInvalidError, policyRuleSchema, runScope, type PolicyRule } from '../policy/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';

/** A run's own rules, validated before the run is created (a bad rule is a usage error, not a failed run). */
export function validRunRules(rules: readonly unknown[]): PolicyRule[] {
  const parsed = z.array(policyRuleSchema).max(100).safeParse(rules);
  if (!parsed.success) throw new PolicyInvalidError("The run's policy rules", parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(rules)'}: ${issue.message}`));
  return parsed.data;
}

/** Saves the run's own rules as its `run:<id>` scope, before its first call; they only tighten, and a resume finds them in the store. */
export async function saveRunPolicy(runtime: ForgeRuntime, runId: string, rules: readonly PolicyRule[] | undefined, author: string | null | undefined): Promise<void> {
  if (rules === undefined || rules.length === 0) return;
  await runtime.policies.replace(runScope(runId), { version: POLICY_DOCUMENT_VERSION, defaults: {}, rules }, { author: author ?? 'cli', message: "the run's own rules" });
}
