import type { PolicyDecisionKind, PolicyVerdict, RiskLevel } from '../core/index.js';
import { describeCondition, testCondition } from './argument-conditions.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import { BUILT_IN_DEFAULTS, type PolicyDocument, type PolicyRule } from './policy-document.js';
import { tightensOnly } from './policy-scope.js';
import { toolPatternMatches } from './tool-pattern.js';

/** One scope's document as it applies: where it came from and which version. */
export interface PolicyLayer {
  readonly scope: string;
  /** The stored version; null for the layer the configuration makes (FORGE_REQUIRE_APPROVAL). */
  readonly version: number | null;
  readonly document: PolicyDocument;
}

export interface PolicyCall {
  readonly tool: string;
  readonly risk: RiskLevel;
  /** The call's input after validation against the tool's schema. */
  readonly input: unknown;
}

/** A verdict, and every step that led to it, for `forge policy test` and the event. */
export interface PolicyEvaluation {
  readonly verdict: PolicyVerdict & { readonly rule: string };
  readonly trace: readonly string[];
}

const strictness: Record<PolicyDecisionKind, number> = { allow: 0, require_approval: 1, block: 2 };

interface Candidate {
  readonly decision: PolicyDecisionKind;
  readonly rule: string;
  readonly reason: string;
  /** Set by an explicit rule, not a risk default: an explicit approval requirement is never relaxed by a narrower scope. */
  readonly explicit: boolean;
  /** Whether it came from a scope at all (the built-in defaults may be overridden by anyone). */
  readonly fromScope: boolean;
  /** A built-in rule: overridden only by a scope's rule naming the tool, never by a risk default or a run's own rules. */
  readonly builtInRule?: true;
  readonly approvalExpiresSeconds?: number;
}

/** Specific rules win over general ones: conditions first, then an exact name, then the longer pattern, then the stricter decision. */
function specificity(rule: PolicyRule): [number, number, number, number] {
  return [rule.when === undefined ? 0 : 1, rule.tool.includes('*') ? 0 : 1, rule.tool.replaceAll('*', '').length, strictness[rule.decision]];
}

function moreSpecific(left: PolicyRule, right: PolicyRule): boolean {
  const a = specificity(left);
  const b = specificity(right);
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return a[index]! > b[index]!;
  return false;
}

/** Whether a rule applies to the call: its tool matches and each condition holds (an unknown one holds only for rules that restrict). */
function ruleApplies(rule: PolicyRule, call: PolicyCall, workspace: string): boolean {
  if (!toolPatternMatches(rule.tool, call.tool)) return false;
  return (rule.when ?? []).every((condition) => {
    const result = testCondition(condition, call.input, workspace);
    return result === 'holds' || (result === 'unknown' && rule.decision !== 'allow');
  });
}

function ruleName(layer: PolicyLayer, index: number): string {
  return `${layer.scope}${layer.version === null ? ' (configuration)' : ` v${layer.version}`} rule ${index + 1}`;
}

function describeRule(rule: PolicyRule): string {
  const conditions = rule.when === undefined ? '' : ` when ${rule.when.map(describeCondition).join(' and ')}`;
  return `${rule.tool}: ${rule.decision}${conditions}`;
}

/** The most specific of `rules` that applies to the call, with its position. */
function chosenRule(rules: readonly PolicyRule[], call: PolicyCall, workspace: string): { rule: PolicyRule; index: number } | undefined {
  let chosen: { rule: PolicyRule; index: number } | undefined;
  rules.forEach((rule, index) => {
    if (ruleApplies(rule, call, workspace) && (chosen === undefined || moreSpecific(rule, chosen.rule))) chosen = { rule, index };
  });
  return chosen;
}

function layerCandidate(layer: PolicyLayer, call: PolicyCall, workspace: string): Candidate | undefined {
  const chosen = chosenRule(layer.document.rules, call, workspace);
  if (chosen !== undefined) {
    const name = ruleName(layer, chosen.index);
    return {
      decision: chosen.rule.decision,
      rule: `${name} (${describeRule(chosen.rule)})`,
      reason: chosen.rule.reason ?? `${describeRule(chosen.rule)} (${name})`,
      explicit: true,
      fromScope: true,
      ...(chosen.rule.approval_expires_seconds === undefined ? {} : { approvalExpiresSeconds: chosen.rule.approval_expires_seconds }),
    };
  }
  const byRisk = layer.document.defaults[call.risk];
  if (byRisk === undefined) return undefined;
  const name = `${layer.scope}${layer.version === null ? ' (configuration)' : ` v${layer.version}`} default for ${call.risk} risk`;
  return { decision: byRisk, rule: name, reason: `${call.tool} is a ${call.risk}-risk tool (${name}: ${byRisk})`, explicit: false, fromScope: true };
}

/** Why `candidate` (less strict) may not relax `current`, or undefined when it may. */
function relaxRefusal(current: Candidate, candidate: Candidate, scope: string, tool: string): string | undefined {
  if (current.builtInRule === true) return candidate.explicit && !tightensOnly(scope) ? undefined : `a built-in rule is overridden only by a rule for ${tool} in a scope other than a run's`;
  if (!current.fromScope) return undefined;
  if (tightensOnly(scope)) return `a run's own rules only tighten`;
  if (current.decision === 'block') return `a narrower scope never relaxes a block`;
  if (current.explicit) return `an explicit rule requiring approval is not relaxed by a narrower scope`;
  return undefined;
}

/** The built-in rule that applies to the call, if any (see `BUILT_IN_RULES`). */
function builtInRuleCandidate(call: PolicyCall, workspace: string): Candidate | undefined {
  const chosen = chosenRule(BUILT_IN_RULES, call, workspace);
  if (chosen === undefined) return undefined;
  return {
    decision: chosen.rule.decision,
    rule: `built-in rule ${chosen.index + 1} (${describeRule(chosen.rule)})`,
    reason: chosen.rule.reason ?? describeRule(chosen.rule),
    explicit: false,
    fromScope: false,
    builtInRule: true,
  };
}

/**
 * Decides one call from the layers, broadest first. The built-in default for the tool's risk level
 * starts it, and a built-in rule that applies (see `BUILT_IN_RULES`) replaces that; each layer's most
 * specific applying rule (else its default for that risk) then replaces the decision when it is at
 * least as strict. A layer may relax what came before only when that was the built-in default, a
 * built-in rule (by a rule of its own for the tool, not a run's), or a broader scope's risk default
 * that asked for approval: a broader `block` is never relaxed, nor a broader explicit rule requiring
 * approval, and a run's own scope only tightens. Pure: the same layers and call give the same verdict, with the steps that led to it.
 */
export function evaluatePolicy(layers: readonly PolicyLayer[], call: PolicyCall, workspace: string): PolicyEvaluation {
  const builtIn = BUILT_IN_DEFAULTS[call.risk];
  let current: Candidate = {
    decision: builtIn,
    rule: `built-in default for ${call.risk} risk`,
    reason: `${call.tool} is a ${call.risk}-risk tool (built-in default: ${builtIn})`,
    explicit: false,
    fromScope: false,
  };
  const trace = [`${current.rule}: ${builtIn}`];
  const builtInRule = builtInRuleCandidate(call, workspace);
  if (builtInRule !== undefined) {
    trace.push(`${builtInRule.rule}: ${builtInRule.decision}`);
    current = builtInRule;
  }
  for (const layer of layers) {
    const candidate = layerCandidate(layer, call, workspace);
    if (candidate === undefined) {
      trace.push(`${layer.scope}: no rule or default applies`);
      continue;
    }
    if (strictness[candidate.decision] >= strictness[current.decision]) {
      trace.push(`${candidate.rule}: ${candidate.decision}`);
      current = candidate;
      continue;
    }
    const refusal = relaxRefusal(current, candidate, layer.scope, call.tool);
    if (refusal !== undefined) {
      trace.push(`${candidate.rule}: ${candidate.decision}, not applied (${refusal}; ${current.rule} stands)`);
      continue;
    }
    trace.push(`${candidate.rule}: ${candidate.decision} (relaxes ${current.rule})`);
    current = candidate;
  }
  return {
    verdict: {
      decision: current.decision,
      reason: current.reason,
      rule: current.rule,
      ...(current.approvalExpiresSeconds === undefined ? {} : { approvalExpiresSeconds: current.approvalExpiresSeconds }),
    },
    trace,
  };
}
