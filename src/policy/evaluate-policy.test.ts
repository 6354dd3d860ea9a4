import { describe, expect, it } from 'vitest';
import type { RiskLevel } from '../core/index.js';
import { evaluatePolicy, type PolicyLayer } from './evaluate-policy.js';
import { policyDocumentSchema, type PolicyRule } from './policy-document.js';

const workspace = '/srv/workspace';

function layer(scope: string, rules: PolicyRule[], defaults: PolicyLayer['document']['defaults'] = {}, version = 1): PolicyLayer {
  return { scope, version, document: policyDocumentSchema.parse({ version: 1, defaults, rules }) };
}

function decide(layers: PolicyLayer[], tool: string, input: unknown, risk: RiskLevel = 'medium') {
  return evaluatePolicy(layers, { tool, risk, input }, workspace).verdict;
}

describe('evaluatePolicy', () => {
  it('starts from the built-in default of the risk level', () => {
    expect((['low', 'medium', 'high', 'critical'] as const).map((risk) => decide([], 'x', {}, risk).decision)).toEqual(['allow', 'allow', 'require_approval', 'block']);
    expect(decide([], 'x', {}, 'high').rule).toBe('built-in default for high risk');
  });

  it('blocks a shell command by pattern and lets others through, naming the rule', () => {
    const installation = layer('installation', [{ tool: 'shell', decision: 'block', when: [{ argument: 'command', matches: 'rm\\s+-(rf|fr)\\b' }] }], { high: 'allow' });
    expect(decide([installation], 'shell', { command: 'rm -rf /tmp/x' }, 'high')).toMatchObject({ decision: 'block', rule: expect.stringContaining('installation v1 rule 1') });
    expect(decide([installation], 'shell', { command: 'ls -la' }, 'high')).toMatchObject({ decision: 'allow', rule: 'installation v1 default for high risk' });
  });

  it('asks for HTTP methods other than GET/HEAD and for hosts outside a list', () => {
    const installation = layer('installation', [
      { tool: 'http_request', decision: 'require_approval', when: [{ argument: 'method', not_in: ['GET', 'HEAD'] }], approval_expires_seconds: 120 },
      { tool: 'read_url', decision: 'block', when: [{ argument: 'url', host_not_in: ['docs.example.com', '*.example.org'] }] },
    ]);
    expect(decide([installation], 'http_request', { url: 'https://a.test/', method: 'post' })).toMatchObject({ decision: 'require_approval', approvalExpiresSeconds: 120 });
    expect(decide([installation], 'http_request', { url: 'https://a.test/', method: 'GET' }).decision).toBe('allow');
    expect(decide([installation], 'read_url', { url: 'https://evil.test/x' }).decision).toBe('block');
    expect(decide([installation], 'read_url', { url: 'https://api.example.org/x' }).decision).toBe('allow');
    expect(decide([installation], 'read_url', { url: 'https://example.org.evil.test/x' }).decision).toBe('block');
    expect(decide([installation], 'read_url', { url: 'https://DOCS.example.com/x' }).decision).toBe('allow');
  });

  it('finds paths outside a folder, through .., percent-encoding and absolute paths, and on any element of a list', () => {
    const installation = layer('installation', [{ tool: 'file_*', decision: 'block', when: [{ argument: 'path', outside: workspace }] }, { tool: 'git_add', decision: 'block', when: [{ argument: 'paths', outside: workspace }] }]);
    for (const path of ['../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '/etc/passwd', 'a/../../b', '%2e%2e/secret']) {
      expect(decide([installation], 'file_read', { path }).decision, path).toBe('block');
    }
    for (const path of ['notes.md', 'a/b/../c.txt', `${workspace}/x`]) expect(decide([installation], 'file_write', { path }).decision, path).toBe('allow');
    expect(decide([installation], 'git_add', { paths: ['ok.txt', '../../outside'] }).decision).toBe('block');
    expect(decide([installation], 'git_add', { paths: ['ok.txt', 'src/a.ts'] }).decision).toBe('allow');
  });

  it('fails closed on ambiguity: a missing field makes a restricting rule apply and an allowing rule not', () => {
    const installation = layer('installation', [
      { tool: 'read_url', decision: 'block', when: [{ argument: 'url', host_not_in: ['example.com'] }] },
      { tool: 'shell', decision: 'allow', when: [{ argument: 'command', matches: '^ls\\b' }] },
    ]);
    expect(decide([installation], 'read_url', {}).decision).toBe('block');
    expect(decide([installation], 'read_url', { url: { nested: 'example.com' } }).decision).toBe('block');
    expect(decide([installation], 'shell', {}, 'high').decision).toBe('require_approval');
    expect(decide([installation], 'shell', { command: 'ls -la' }, 'high').decision).toBe('allow');
    // Prototype keys lead nowhere: the field is missing, so the restricting rule applies.
    expect(decide([installation], 'read_url', JSON.parse('{"__proto__": {"url": "https://example.com"}}')).decision).toBe('block');
  });

  it('prefers the specific rule: conditions over none, an exact name over a pattern', () => {
    const installation = layer('installation', [
      { tool: '*', decision: 'block' },
      { tool: 'mcp__github__*', decision: 'require_approval' },
      { tool: 'mcp__github__list_issues', decision: 'allow' },
      { tool: 'mcp__github__delete_repo', decision: 'allow' },
      { tool: 'mcp__github__delete_repo', decision: 'block', when: [{ argument: 'name', matches: 'prod' }] },
    ]);
    expect(decide([installation], 'web_search', {}).decision).toBe('block');
    expect(decide([installation], 'mcp__github__create_issue', {}).decision).toBe('require_approval');
    expect(decide([installation], 'mcp__github__list_issues', {}).decision).toBe('allow');
    expect(decide([installation], 'mcp__github__delete_repo', { name: 'prod-db' }).decision).toBe('block');
    expect(decide([installation], 'mcp__github__delete_repo', { name: 'scratch' }).decision).toBe('allow');
  });

  it('never lets a narrower scope relax a broader block or a broader explicit approval rule', () => {
    const installation = layer('installation', [{ tool: 'shell', decision: 'block' }, { tool: 'http_request', decision: 'require_approval' }]);
    const agent = layer('agent:researcher', [{ tool: 'shell', decision: 'allow' }, { tool: 'http_request', decision: 'allow' }]);
    const shell = evaluatePolicy([installation, agent], { tool: 'shell', risk: 'high', input: { command: 'ls' } }, workspace);
    expect(shell.verdict.decision).toBe('block');
    expect(shell.trace.at(-1)).toContain('never relaxes a block');
    expect(decide([installation, agent], 'http_request', { url: 'https://a.test/' }).decision).toBe('require_approval');
  });

  it("lets an agent relax a broader risk default, and lets a run's own rules only tighten", () => {
    const installation = layer('installation', [], { high: 'require_approval' });
    const agent = layer('agent:toolsmith', [{ tool: 'shell', decision: 'allow' }]);
    expect(decide([installation, agent], 'shell', { command: 'ls' }, 'high').decision).toBe('allow');
    const run = layer('run:r1', [{ tool: 'read_url', decision: 'allow' }, { tool: 'web_search', decision: 'block' }]);
    const relaxed = evaluatePolicy([installation, run], { tool: 'read_url', risk: 'high', input: {} }, workspace);
    expect(relaxed.verdict.decision).toBe('require_approval');
    expect(relaxed.trace.at(-1)).toContain("a run's own rules only tighten");
    expect(decide([installation, run], 'web_search', {}, 'low').decision).toBe('block');
    // The built-in defaults are a starting point anyone may change: the installation can allow critical tools.
    expect(decide([layer('installation', [], { critical: 'allow' })], 'wipe', {}, 'critical').decision).toBe('allow');
  });
});

describe('policyDocumentSchema', () => {
  it('refuses what cannot be checked safely or does not make sense, naming where', () => {
    const bad = [
      { rules: [{ tool: 'shell', decision: 'block', when: [{ argument: 'command', matches: '(a)\\1' }] }] },
      { rules: [{ tool: 'shell', decision: 'block', when: [{ argument: 'command', matches: 'x', in: ['y'] }] }] },
      { rules: [{ tool: 'shell', decision: 'block', when: [{ argument: 'command' }] }] },
      { rules: [{ tool: 'shell', decision: 'allow', approval_expires_seconds: 60 }] },
      { rules: [{ tool: 'sh ell', decision: 'block' }] },
      { rules: [{ tool: 'shell', decision: 'maybe' }] },
      { rules: [{ tool: 'read_file', decision: 'block', when: [{ argument: 'path', outside: 'relative/folder' }] }] },
      { rules: [], extra: true },
      { defaults: { severe: 'block' }, rules: [] },
    ];
    for (const rules of bad) expect(policyDocumentSchema.safeParse({ version: 1, ...rules }).success, JSON.stringify(rules)).toBe(false);
    expect(policyDocumentSchema.safeParse({ version: 1, rules: [{ tool: 'shell', decision: 'block', when: [{ argument: 'command', matches: 'rm\\s' }] }] }).success).toBe(true);
  });
});
