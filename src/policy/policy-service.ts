import type { z } from 'zod';
import { NotFoundError, ToolInputError, callSideEffect, type PolicyDecisionKind, type PolicyStore, type PolicyVersion, type RiskLevel } from '../core/index.js';
import type { ToolRegistry } from '../tools/index.js';
import type { PolicyEvaluation } from './evaluate-policy.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import { PolicyConflictError, PolicyInvalidError } from './policy-errors.js';
import { BUILT_IN_DEFAULTS, emptyPolicyDocument, policyDocumentSchema, policyRuleSchema, sameRuleKey, type PolicyDocument, type PolicyRule } from './policy-document.js';
import type { PolicyEngine } from './policy-engine.js';
import { policyScopeSchema } from './policy-scope.js';
import { toolPatternMatches } from './tool-pattern.js';

export interface PolicyServiceParts {
  readonly store: PolicyStore;
  readonly engine: PolicyEngine;
  /** The catalog: `test` describes a call of one of its tools, and a change warns of patterns that name none. */
  readonly registry: ToolRegistry;
}

/** Who makes a change, and why: kept with the version it makes. */
export interface PolicyAuthor {
  readonly author: string;
  readonly message?: string;
}

/** A scope's policy as it stands. */
export interface PolicyShown {
  readonly scope: string;
  /** The version in force; null when the scope has never been saved (its document is then empty). */
  readonly version: number | null;
  readonly document: PolicyDocument;
  readonly author: string | null;
  readonly createdAt: string | null;
  /** What applies where no scope decides. */
  readonly builtInDefaults: Readonly<Record<RiskLevel, PolicyDecisionKind>>;
  /** Rules under every scope (see `BUILT_IN_RULES`). */
  readonly builtInRules: readonly PolicyRule[];
  /** Tools the configuration sends for approval (FORGE_REQUIRE_APPROVAL). */
  readonly configurationRequiresApproval: readonly string[];
}

/** A saved change: the new version, and what a person should check about it. */
export interface PolicyChange {
  readonly scope: string;
  readonly version: number;
  readonly document: PolicyDocument;
  /** Rules whose tool pattern names no tool in the catalog now (a typo, or an MCP server not connected). */
  readonly warnings: readonly string[];
}

export interface PolicyTest extends PolicyEvaluation {
  readonly tool: string;
  readonly risk: RiskLevel;
  readonly sideEffect: 'read' | 'write';
  /** The scopes whose stored documents took part, with their versions. */
  readonly layers: readonly { readonly scope: string; readonly version: number | null }[];
}

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length === 0 ? '(document)' : issue.path.map(String).join('.')}: ${issue.message}`);
}

function validScope(scope: string): string {
  const parsed = policyScopeSchema.safeParse(scope);
  if (!parsed.success) throw new PolicyInvalidError(`The scope "${scope}"`, issuesOf(parsed.error), 'Scopes are installation, agent:<slug>, deployment:<id> and run:<id>.');
  return parsed.data;
}

/**
 * Policies as data, for the CLI and the API alike: every change validates with the schema that defines
 * a policy, saves a new immutable version of its scope (with author and message), and reaches this
 * process's engine at once (other processes within a second). `test` explains what would happen to a
 * call without making it.
 */
export class PolicyService {
  constructor(private readonly parts: PolicyServiceParts) {}

  async show(scope = 'installation'): Promise<PolicyShown> {
    const [latest] = await this.parts.store.latest([validScope(scope)]);
    return {
      scope,
      version: latest?.version ?? null,
      document: latest === undefined ? emptyPolicyDocument : this.stored(latest),
      author: latest?.author ?? null,
      createdAt: latest?.createdAt ?? null,
      builtInDefaults: BUILT_IN_DEFAULTS,
      builtInRules: BUILT_IN_RULES,
      configurationRequiresApproval: this.parts.engine.configurationRules(),
    };
  }

  /** Every scope that has a saved policy. */
  scopes(): Promise<string[]> {
    return this.parts.store.scopes();
  }

  /** Adds a rule to a scope, or replaces the rule with the same tool pattern and conditions. */
  async setRule(scope: string, rule: unknown, by: PolicyAuthor): Promise<PolicyChange> {
    const parsed = policyRuleSchema.safeParse(rule);
    if (!parsed.success) throw new PolicyInvalidError('The rule', issuesOf(parsed.error));
    const next = parsed.data;
    return this.change(scope, by, `set ${next.tool} ${next.decision}`, (document) => {
      const replaced = document.rules.some((existing) => sameRuleKey(existing, next));
      return { ...document, rules: replaced ? document.rules.map((existing) => (sameRuleKey(existing, next) ? next : existing)) : [...document.rules, next] };
    });
  }

  /** Removes the rule with this tool pattern and these conditions (none: the unconditional one). */
  async removeRule(scope: string, key: Pick<PolicyRule, 'tool' | 'when'>, by: PolicyAuthor): Promise<PolicyChange> {
    return this.change(scope, by, `unset ${key.tool}`, (document) => {
      const probe = { ...key, decision: 'allow' } as PolicyRule;
      if (!document.rules.some((existing) => sameRuleKey(existing, probe))) {
        throw new NotFoundError('policy rule', `${key.tool}${key.when === undefined ? '' : ' with those conditions'} in ${scope}`, 'See the rules with `forge policy show`.');
      }
      return { ...document, rules: document.rules.filter((existing) => !sameRuleKey(existing, probe)) };
    });
  }

  /** Sets (or, with null, removes) a scope's decision for one risk level. */
  async setDefault(scope: string, risk: RiskLevel, decision: PolicyDecisionKind | null, by: PolicyAuthor): Promise<PolicyChange> {
    return this.change(scope, by, `default ${risk} ${decision ?? 'unset'}`, (document) => {
      const defaults = { ...document.defaults };
      if (decision === null) delete defaults[risk];
      else defaults[risk] = decision;
      return { ...document, defaults };
    });
  }

  /** Replaces a scope's whole document (a file under version control, `forge policy set --file`). */
  async replace(scope: string, document: unknown, by: PolicyAuthor): Promise<PolicyChange> {
    const parsed = policyDocumentSchema.safeParse(document);
    if (!parsed.success) throw new PolicyInvalidError('The policy document', issuesOf(parsed.error));
    return this.change(scope, by, 'replaced', () => parsed.data);
  }

  /** A scope's versions, newest first. */
  async versions(scope: string): Promise<PolicyVersion[]> {
    return this.parts.store.versions(validScope(scope));
  }

  /** Saves an earlier version's document again, as the newest version. */
  async rollback(scope: string, version: number, by: PolicyAuthor): Promise<PolicyChange> {
    const earlier = await this.parts.store.get(validScope(scope), version);
    if (earlier === undefined) throw new NotFoundError('policy version', `${scope} v${version}`, `See the versions with \`forge policy versions --scope ${scope}\`.`);
    const document = this.stored(earlier);
    return this.change(scope, { ...by, message: by.message ?? `rollback to v${version}` }, `rollback to v${version}`, () => document);
  }

  /** What would happen to a call of `tool` with `input` (validated as dispatch would), and why. */
  async test(request: { tool: string; input: unknown; scopes?: readonly string[]; runId?: string }): Promise<PolicyTest> {
    const tool = this.parts.registry.snapshot().resolve(request.tool);
    const parsed = tool.inputSchema.safeParse(request.input ?? {});
    if (!parsed.success) throw new ToolInputError(tool.name, parsed.error.issues.map((issue) => `${issue.path.length === 0 ? '(input)' : issue.path.map(String).join('.')}: ${issue.message}`));
    const scopes = (request.scopes ?? []).map(validScope);
    const sideEffect = callSideEffect(tool, parsed.data);
    const evaluation = await this.parts.engine.evaluate({ runId: request.runId ?? '', tool: tool.name, risk: tool.risk, input: parsed.data, scopes });
    return { ...evaluation, tool: tool.name, risk: tool.risk, sideEffect, layers: evaluation.layers.map((layer) => ({ scope: layer.scope, version: layer.version })) };
  }

  private stored(version: PolicyVersion): PolicyDocument {
    const parsed = policyDocumentSchema.safeParse(version.document);
    if (!parsed.success) throw new PolicyInvalidError(`The stored policy of ${version.scope} (v${version.version})`, issuesOf(parsed.error), `Replace it: \`forge policy set --file policy.json --scope ${version.scope}\`, or roll back to a valid version.`);
    return parsed.data;
  }

  private async change(scope: string, by: PolicyAuthor, summary: string, edit: (document: PolicyDocument) => PolicyDocument): Promise<PolicyChange> {
    const valid = validScope(scope);
    const [latest] = await this.parts.store.latest([valid]);
    const current = latest === undefined ? emptyPolicyDocument : this.stored(latest);
    const edited = policyDocumentSchema.safeParse(edit(current));
    if (!edited.success) throw new PolicyInvalidError('The changed policy', issuesOf(edited.error));
    const saved = await this.parts.store.save({ scope: valid, document: edited.data, author: by.author, message: by.message ?? summary }, { expectedVersion: latest?.version ?? 0 });
    if (saved === undefined) throw new PolicyConflictError(valid, latest?.version ?? 0);
    this.parts.engine.invalidate([valid]);
    const names = this.parts.registry.snapshot().names();
    const warnings = edited.data.rules
      .filter((rule) => !names.some((name) => toolPatternMatches(rule.tool, name)))
      .map((rule) => `no tool in the catalog now is named ${rule.tool} (a typo, or a tool that is not connected yet?)`);
    return { scope: valid, version: saved.version, document: edited.data, warnings: [...new Set(warnings)] };
  }
}
