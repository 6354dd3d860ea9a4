import type { PolicyDecisionKind } from '../core/index.js';
import { toolPatternMatches, type PolicyRule } from '../policy/index.js';
import { mcpServerPattern, type AgentDefinition, type ToolAccess } from './agent-definition.js';

const decisionOf: Record<ToolAccess, PolicyDecisionKind> = { allowed: 'allow', approval: 'require_approval', disabled: 'block' };
const strictness: Record<ToolAccess, number> = { allowed: 0, approval: 1, disabled: 2 };

/** Every tool pattern the definition gives an access to, its `tools` first, then one `mcp__<server>__*` per MCP server. */
function accessEntries(definition: AgentDefinition): [pattern: string, access: ToolAccess][] {
  return [...Object.entries(definition.tools), ...Object.entries(definition.mcp_servers).map(([server, access]): [string, ToolAccess] => [mcpServerPattern(server), access])];
}

/**
 * The definition's tool access as policy rules (`allowed` → allow, `approval` → require_approval,
 * `disabled` → block), one per entry of `tools` and one `mcp__<server>__*` rule per MCP server. The
 * policy engine applies them at `agent:<slug>.v<n>` (`agentVersionScope`, see src/policy), where they never relax a broader block
 * or explicit approval rule (they may relax a risk default, as any narrower scope may).
 */
export function agentPolicyRules(definition: AgentDefinition): PolicyRule[] {
  return accessEntries(definition).map(([tool, access]) => ({
    tool,
    decision: decisionOf[access],
    ...(access === 'allowed' ? {} : { reason: `${tool === '*' ? 'every tool' : tool} ${access === 'disabled' ? 'is disabled' : 'needs approval'} for the agent ${definition.slug}` }),
  }));
}

/** Exact names before patterns, longer patterns before shorter, the stricter access on a tie: how the policy engine picks a rule. */
function moreSpecific(left: [string, ToolAccess], right: [string, ToolAccess]): boolean {
  const key = ([pattern, access]: [string, ToolAccess]) => [pattern.includes('*') ? 0 : 1, pattern.replaceAll('*', '').length, strictness[access]];
  const [a, b] = [key(left), key(right)];
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return a[index]! > b[index]!;
  return false;
}

/**
 * The access the definition gives `toolName`: its most specific entry that names it (the same choice
 * the policy engine makes among the rules of `agentPolicyRules`), or undefined when no entry does
 * (the tool is not offered, unless it is a toolbox tool and `toolbox` is on).
 */
export function agentToolAccess(definition: AgentDefinition, toolName: string): ToolAccess | undefined {
  let chosen: [string, ToolAccess] | undefined;
  for (const entry of accessEntries(definition)) {
    if (toolPatternMatches(entry[0], toolName) && (chosen === undefined || moreSpecific(entry, chosen))) chosen = entry;
  }
  return chosen?.[1];
}

/**
 * Whether a run of the agent offers `toolName` to the model: when an entry gives it `allowed` or
 * `approval`; or, named by no entry, when it is a verified toolbox tool and the definition's
 * `toolbox` is on. A disabled tool is never offered (and its calls are blocked by `agentPolicyRules`).
 */
export function agentOffersTool(definition: AgentDefinition, toolName: string, tool: { readonly fromToolbox: boolean }): boolean {
  const access = agentToolAccess(definition, toolName);
  if (access !== undefined) return access !== 'disabled';
  return tool.fromToolbox && definition.toolbox;
}
