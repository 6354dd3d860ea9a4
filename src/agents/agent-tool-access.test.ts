import { describe, expect, it } from 'vitest';
import type { RiskLevel } from '../core/index.js';
import { evaluatePolicy, policyDocumentSchema, policyRuleSchema, policyScopeSchema, type PolicyLayer, type PolicyRule } from '../policy/index.js';
import { agentVersionScope } from '../policy/index.js';
import { agentOffersTool, agentPolicyRules, agentToolAccess, parseAgentDefinition, type AgentDefinition } from './index.js';

const definition = parseAgentDefinition({
  version: 1,
  name: 'Researcher',
  slug: 'researcher',
  system_prompt: 'Research.',
  tools: { web_search: 'allowed', read_url: 'allowed', http_request: 'approval', shell: 'disabled', 'file_*': 'disabled', file_read: 'allowed', 'mcp__github__delete_*': 'disabled' },
  mcp_servers: { github: 'approval', docs: 'allowed' },
});

function layer(scope: string, rules: readonly PolicyRule[]): PolicyLayer {
  return { scope, version: 1, document: policyDocumentSchema.parse({ version: 1, rules }) };
}

function decide(agent: AgentDefinition, installation: readonly PolicyRule[], tool: string, risk: RiskLevel = 'medium') {
  return evaluatePolicy([layer('installation', installation), layer(agentVersionScope(agent.slug, 1), agentPolicyRules(agent))], { tool, risk, input: {} }, '/srv/workspace').verdict;
}

describe('agent tool access as policy rules', () => {
  it('turns allowed, approval and disabled into allow, require_approval and block, MCP servers into one pattern each', () => {
    expect(agentPolicyRules(definition)).toEqual([
      { tool: 'web_search', decision: 'allow' },
      { tool: 'read_url', decision: 'allow' },
      { tool: 'http_request', decision: 'require_approval', reason: 'http_request needs approval for the agent researcher' },
      { tool: 'shell', decision: 'block', reason: 'shell is disabled for the agent researcher' },
      { tool: 'file_*', decision: 'block', reason: 'file_* is disabled for the agent researcher' },
      { tool: 'file_read', decision: 'allow' },
      { tool: 'mcp__github__delete_*', decision: 'block', reason: 'mcp__github__delete_* is disabled for the agent researcher' },
      { tool: 'mcp__github__*', decision: 'require_approval', reason: 'mcp__github__* needs approval for the agent researcher' },
      { tool: 'mcp__docs__*', decision: 'allow' },
    ]);
  });

  it('gives rules that validate as policy rules, at a scope that validates as a policy scope', () => {
    for (const rule of agentPolicyRules(definition)) expect(policyRuleSchema.safeParse(rule).success, rule.tool).toBe(true);
    expect(policyDocumentSchema.safeParse({ version: 1, rules: agentPolicyRules(definition) }).success).toBe(true);
    expect(agentVersionScope('researcher', 2)).toBe('agent:researcher.v2');
    expect(policyScopeSchema.safeParse(agentVersionScope('a'.repeat(63), 999_999_999)).success).toBe(true);
    const everything = parseAgentDefinition({ version: 1, name: 'All', slug: 'all', system_prompt: 'x', tools: { '*': 'disabled' } });
    expect(agentPolicyRules(everything)).toEqual([{ tool: '*', decision: 'block', reason: 'every tool is disabled for the agent all' }]);
  });

  it("never lets an agent's allowed relax an installation's block or explicit approval rule", () => {
    const installation: PolicyRule[] = [
      { tool: 'web_search', decision: 'block' },
      { tool: 'read_url', decision: 'require_approval' },
      { tool: 'mcp__*', decision: 'block' },
    ];
    expect(decide(definition, installation, 'web_search')).toMatchObject({ decision: 'block', rule: 'installation v1 rule 1 (web_search: block)' });
    expect(decide(definition, installation, 'read_url').decision).toBe('require_approval');
    expect(decide(definition, installation, 'mcp__docs__search').decision).toBe('block');
  });

  it('blocks what the agent disables even where the installation allows it, and asks where it asks for approval', () => {
    const installation: PolicyRule[] = [{ tool: '*', decision: 'allow' }];
    expect(decide(definition, installation, 'shell', 'high')).toMatchObject({ decision: 'block', reason: 'shell is disabled for the agent researcher' });
    expect(decide(definition, installation, 'file_write').decision).toBe('block');
    expect(decide(definition, installation, 'http_request').decision).toBe('require_approval');
    expect(decide(definition, installation, 'mcp__github__list_issues').decision).toBe('require_approval');
  });

  it("relaxes a risk default, as any narrower scope may: an agent's allowed high-risk tool runs without asking", () => {
    const permissive = parseAgentDefinition({ version: 1, name: 'Ops', slug: 'ops', system_prompt: 'x', tools: { shell: 'allowed' } });
    expect(evaluatePolicy([layer('installation', [])], { tool: 'shell', risk: 'high', input: {} }, '/srv').verdict.decision).toBe('require_approval');
    expect(decide(permissive, [], 'shell', 'high').decision).toBe('allow');
  });
});

describe('agent tool access per tool', () => {
  it('picks the most specific entry, as the policy engine picks among the rules', () => {
    const expected: Record<string, string | undefined> = {
      web_search: 'allowed',
      shell: 'disabled',
      file_read: 'allowed',
      file_write: 'disabled',
      mcp__github__list_issues: 'approval',
      mcp__github__delete_repo: 'disabled',
      mcp__docs__search: 'allowed',
      mcp__other__search: undefined,
      send_email: undefined,
    };
    const decisions = { allowed: 'allow', approval: 'require_approval', disabled: 'block' } as const;
    for (const [tool, access] of Object.entries(expected)) {
      expect(agentToolAccess(definition, tool), tool).toBe(access);
      if (access !== undefined) expect(decide(definition, [{ tool: '*', decision: 'allow' }], tool).decision, tool).toBe(decisions[access as keyof typeof decisions]);
    }
  });

  it('offers what is allowed or needs approval, never what is disabled, and toolbox tools only when toolbox is on', () => {
    const fromCatalog = { fromToolbox: false };
    const fromToolbox = { fromToolbox: true };
    expect(['web_search', 'http_request', 'shell', 'send_email'].filter((tool) => agentOffersTool(definition, tool, fromCatalog))).toEqual(['web_search', 'http_request']);
    expect(agentOffersTool(definition, 'csv_to_json', fromToolbox)).toBe(false);
    const withToolbox = parseAgentDefinition({ version: 1, name: 'Smith', slug: 'smith', system_prompt: 'x', toolbox: true, tools: { file_from_toolbox: 'disabled' } });
    expect(agentOffersTool(withToolbox, 'csv_to_json', fromToolbox)).toBe(true);
    expect(agentOffersTool(withToolbox, 'csv_to_json', fromCatalog)).toBe(false);
    expect(agentOffersTool(withToolbox, 'file_from_toolbox', fromToolbox)).toBe(false);
  });
});
