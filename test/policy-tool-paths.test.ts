import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LLMock, type ChatCompletionRequest } from '@copilotkit/aimock';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForgeClient } from '../src/client/index.js';
import type { ForgeEvent } from '../src/core/index.js';
import { answerApproval, openRuntime, runSkill, runTask, storedApprovals, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { startFixtureMcpServer, type FixtureMcpServer } from './fixtures/mcp/fixture-mcp-server.js';
import { runCli } from './support/built-cli.js';
import { SideEffectCounter, startCountingServer, type CountingServer } from './support/side-effect-counter.js';

/**
 * For every way a tool call reaches Forge, the acceptance: allowed, the call's side effect lands
 * exactly once at a fixture that counts it (so each case can fail); blocked by a policy rule, nothing
 * lands and the outcome says PolicyBlockedError with the rule; needing approval and denied, nothing
 * lands and the model (or the caller) is told why. Every side effect is counted where it lands, never
 * read from the response.
 */

const MODEL = 'openai:gpt-4.1-mini';
/** The reason of every require_approval rule here: a call refused for want of an approver is told it. */
const APPROVAL_REASON = 'a person signs off on every post';
/** What the person who denies a waiting call says: the model must be told exactly this. */
const DENIAL_REASON = 'not today: the ledger is closed for audit';

type Decision = 'allow' | 'block' | 'require_approval';

const mock = new LLMock({ port: 0, host: '127.0.0.1' });
/** Where built-in `http_request`, the toolbox tool and skill replays send their POSTs. */
let site: CountingServer;
/** The tool results each scripted call's model turn was shown, by call id. */
const shownToModel = new Map<string, string>();
const homes: string[] = [];

beforeAll(async () => {
  await mock.start();
  site = await startCountingServer();
});
afterAll(async () => {
  await mock.stop();
  await site?.close();
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

async function newHome(): Promise<string> {
  const home = await mkdtemp(path.join(tmpdir(), 'forge-policy-paths-'));
  homes.push(home);
  return home;
}

/** A runtime on a fresh home whose model is aimock and whose guarded fetch lets `allowHosts` through. */
async function openTestRuntime(home: string, allowHosts: readonly string[]): Promise<ForgeRuntime> {
  const env = { FORGE_HOME: home, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${mock.url}/v1`, FORGE_ALLOW_HOSTS: allowHosts.join(',') };
  return openRuntime(env, home, { mcp: { startupWaitMs: 0 } });
}

function messageText(content: ChatCompletionRequest['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Asked `Make the call "<callId>".`, the model calls `tool` once; shown its result, it records what it saw and answers. */
function scriptCall(callId: string, tool: string, input: unknown): string {
  const task = `Make the call "${callId}".`;
  mock.on({ userMessage: task, hasToolResult: false }, { toolCalls: [{ id: callId, name: tool, arguments: JSON.stringify(input) }] });
  mock.on({ toolCallId: callId }, (request) => {
    const result = request.messages.find((message) => message.role === 'tool' && message.tool_call_id === callId);
    shownToModel.set(callId, messageText(result?.content ?? null));
    return { content: `Done with ${callId}.` };
  });
  return task;
}

/** The rule JSON for `decision`: a require_approval rule carries APPROVAL_REASON, a block rule the default reason (which names the rule). */
function ruleFor(tool: string, decision: Decision): { tool: string; decision: Decision; reason?: string } {
  return decision === 'require_approval' ? { tool, decision, reason: APPROVAL_REASON } : { tool, decision };
}

/** A saved rule as `policy-decision` events name it, and the reason a refused call is given. */
interface SavedRule {
  /** `installation v3 rule 1 (http_request: block)`. */
  readonly rule: string;
  /** The rule's own reason, else the default one, which names the rule: `http_request: block (installation v3 rule 1)`. */
  readonly reason: string;
}

function savedRule(change: { readonly version: number; readonly document: { readonly rules: readonly { readonly tool: string }[] } }, tool: string, decision: Decision): SavedRule {
  const name = `installation v${change.version} rule ${change.document.rules.findIndex((rule) => rule.tool === tool) + 1}`;
  return { rule: `${name} (${tool}: ${decision})`, reason: ruleFor(tool, decision).reason ?? `${tool}: ${decision} (${name})` };
}

/** Saves the installation's rule for `tool`, replacing the one before. */
async function decide(runtime: ForgeRuntime, tool: string, decision: Decision): Promise<SavedRule> {
  return savedRule(await runtime.policies.setRule('installation', ruleFor(tool, decision), { author: 'policy-tool-paths test' }), tool, decision);
}

function eventsOf(events: readonly ForgeEvent[], callId: string): ForgeEvent[] {
  return events.filter((event) => 'call_id' in event && event.call_id === callId);
}

/** The call ran: the policy allowed it under the rule, and it has a result. */
function expectRan(events: readonly ForgeEvent[], callId: string, { rule }: SavedRule): void {
  const own = eventsOf(events, callId);
  expect(own).toContainEqual(expect.objectContaining({ type: 'policy-decision', decision: 'allow', rule }));
  expect(own.filter((event) => event.type === 'tool-result')).toHaveLength(1);
}

/** The call was blocked by the rule: a PolicyBlockedError giving its reason, no approval asked, no result. */
function expectBlocked(events: readonly ForgeEvent[], callId: string, { rule, reason }: SavedRule): void {
  const own = eventsOf(events, callId);
  expect(own).toContainEqual(expect.objectContaining({ type: 'policy-decision', decision: 'block', rule }));
  expect(own).toContainEqual(expect.objectContaining({ type: 'tool-error', error: expect.objectContaining({ name: 'PolicyBlockedError', message: expect.stringContaining(reason) }) }));
  expect(own.map((event) => event.type)).not.toContain('tool-result');
  expect(own.map((event) => event.type)).not.toContain('approval-request');
}

/** The call needed approval under the rule and was refused with `reason`: an ApprovalDeniedError saying it, and no result. */
function expectDenied(events: readonly ForgeEvent[], callId: string, { rule }: SavedRule, reason: string): void {
  const own = eventsOf(events, callId);
  // Asked again when a paused run resumes: every decision is the same rule's.
  const decisions = own.filter((event) => event.type === 'policy-decision');
  expect(decisions.length).toBeGreaterThan(0);
  expect(decisions).toEqual(decisions.map(() => expect.objectContaining({ decision: 'require_approval', rule })));
  expect(own).toContainEqual(expect.objectContaining({ type: 'tool-error', error: expect.objectContaining({ name: 'ApprovalDeniedError', message: expect.stringContaining(reason) }) }));
  expect(own.map((event) => event.type)).not.toContain('tool-result');
}

/** One kind of tool as an agent run (aimock the model) calls it. */
interface AgentPath {
  readonly runtime: ForgeRuntime;
  /** The tool's name in the catalog. */
  readonly tool: string;
  /** A call whose side effect lands under `label` at the fixture. */
  input(label: string): unknown;
  /** How often the side effect under `label` landed. */
  hits(label: string): number;
}

/**
 * The three cases for one kind of tool in agent runs with the gate that waits for a person
 * (`storedApprovals`): the run pauses on a call needing approval and `answerApproval` denies it.
 */
function agentRunCases(prefix: string, current: () => AgentPath): void {
  async function run(label: string) {
    const { runtime, tool, input } = current();
    const task = scriptCall(label, tool, input(label));
    return runTask(runtime, { task, model: MODEL, maxRetries: 0, approvals: storedApprovals(runtime) });
  }

  it('allowed: the call runs, and its side effect lands once', async () => {
    const { runtime, tool, hits } = current();
    const label = `${prefix}-allowed`;
    const rule = await decide(runtime, tool, 'allow');
    const result = await run(label);
    expect(result.status).toBe('completed');
    expect(hits(label)).toBe(1);
    expectRan(await runtime.store.events.list(result.run_id), label, rule);
  });

  it('blocked: nothing lands, and the model is told PolicyBlockedError with the rule', async () => {
    const { runtime, tool, hits } = current();
    const label = `${prefix}-blocked`;
    const rule = await decide(runtime, tool, 'block');
    const result = await run(label);
    expect(result.status).toBe('completed');
    expect(hits(label)).toBe(0);
    expectBlocked(await runtime.store.events.list(result.run_id), label, rule);
    expect(shownToModel.get(label)).toContain(`Error (PolicyBlockedError): Policy blocked tool "${tool}": ${rule.reason}`);
  });

  it('require_approval, denied: the run waits with nothing landed, and after the denial nothing lands and the model is told the reason', async () => {
    const { runtime, tool, hits } = current();
    const label = `${prefix}-denied`;
    const rule = await decide(runtime, tool, 'require_approval');
    const paused = await run(label);
    expect(paused).toMatchObject({ status: 'waiting', waiting_on: [label] });
    expect(hits(label)).toBe(0);
    const answered = await answerApproval(runtime, { runId: paused.run_id, callId: label, decision: 'denied', reason: DENIAL_REASON });
    expect(answered.resumed).toMatchObject({ status: 'completed' });
    expect(hits(label)).toBe(0);
    const events = await runtime.store.events.list(paused.run_id);
    expect(eventsOf(events, label)).toContainEqual(expect.objectContaining({ type: 'approval-answer', decision: 'denied', reason: DENIAL_REASON }));
    expectDenied(events, label, rule, DENIAL_REASON);
    expect(shownToModel.get(label)).toContain(`Error (ApprovalDeniedError): Tool "${tool}" needs approval and was not approved: ${DENIAL_REASON}`);
  });
}

/** An http_request POST that lands at the counting site under `label`. */
function postTo(label: string): { method: 'POST'; url: string; body: string } {
  return { method: 'POST', url: site.url(label), body: label };
}

describe('built-in tools (http_request) in agent runs', () => {
  let runtime: ForgeRuntime;
  beforeAll(async () => {
    runtime = await openTestRuntime(await newHome(), [site.allowHost]);
  });
  afterAll(async () => {
    await runtime?.close();
  });

  agentRunCases('builtin', () => ({ runtime, tool: 'http_request', input: postTo, hits: (label) => site.counter.hits(label) }));
});

describe('remote tools of a connected MCP server in agent runs', () => {
  const notes = new SideEffectCounter();
  let server: FixtureMcpServer;
  let runtime: ForgeRuntime;
  beforeAll(async () => {
    server = await startFixtureMcpServer({
      name: 'notes',
      tools: {
        post_note: {
          description: 'Posts a note under a label.',
          inputSchema: { label: z.string() },
          handler: (args) => ({ content: [{ type: 'text', text: `posted note ${String(args['label'])} (${notes.hit(String(args['label']))})` }] }),
        },
      },
    });
    runtime = await openTestRuntime(await newHome(), [`127.0.0.1:${server.port}`]);
    expect(await runtime.mcp.add({ name: 'notes', url: server.url, transport: 'streamable-http' })).toMatchObject({ state: 'connected' });
  });
  afterAll(async () => {
    await runtime?.close();
    await server?.close();
  });

  agentRunCases('mcp', () => ({ runtime, tool: 'mcp__notes__post_note', input: (label) => ({ label }), hits: (label) => notes.hits(label) }));
});

describe('toolbox tools (added through the verification gate, run in the sandbox) in agent runs', () => {
  let runtime: ForgeRuntime;
  beforeAll(async () => {
    runtime = await openTestRuntime(await newHome(), [site.allowHost]);
    const toolSource = [
      "export const meta = { name: 'post_receipt', description: 'Posts a receipt to a ledger URL and returns what the ledger acknowledged.', input: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] }, capabilities: ['fetch'] };",
      "export default async function run(input, forge) { const response = await forge.fetch(input.url, { method: 'POST', body: 'receipt' }); return response.json(); }",
    ].join('\n');
    // The gate runs this test against the tool (one POST under toolbox-verification) and against every stub.
    const testSource = `export default async function test(tool, assert) { const ack = await tool({ url: ${JSON.stringify(site.url('toolbox-verification'))} }); assert.equal(ack.label, 'toolbox-verification'); assert.equal(ack.method, 'POST'); }`;
    expect(await runtime.tools.add({ toolSource, testSource })).toMatchObject({ name: 'post_receipt', status: 'promoted' });
    expect(site.counter.hits('toolbox-verification')).toBe(1);
  });
  afterAll(async () => {
    await runtime?.close();
  });

  agentRunCases('toolbox', () => ({ runtime, tool: 'post_receipt', input: (label) => ({ url: site.url(label) }), hits: (label) => site.counter.hits(label) }));
});

/** Records an agent run that posts with http_request (allowed: no rule yet) and saves it as the skill `post-note`, its url and body inputs. */
async function savePostSkill(runtime: ForgeRuntime, label: string): Promise<void> {
  const recording = await runTask(runtime, { task: scriptCall(label, 'http_request', postTo(label)), model: MODEL, maxRetries: 0 });
  expect(site.counter.hits(label)).toBe(1);
  expect(recording.status).toBe('completed');
  const saved = await runtime.skills.saveFromRun(recording.run_id, { name: 'post-note', constants: ['steps[0].method'] });
  expect(saved.document.steps[0]!.arguments.map((argument) => [argument.path, argument.binding.kind])).toEqual([['method', 'constant'], ['url', 'input'], ['body', 'input']]);
}

describe('skill replay of a saved skill whose step posts with http_request', () => {
  let runtime: ForgeRuntime;
  beforeAll(async () => {
    runtime = await openTestRuntime(await newHome(), [site.allowHost]);
    await savePostSkill(runtime, 'skill-recording');
  });
  afterAll(async () => {
    await runtime?.close();
  });

  const replay = (label: string) => runSkill(runtime, { skill: 'post-note', inputs: { url: site.url(label), body: label } });

  it('allowed: the step runs, and its POST lands once', async () => {
    const rule = await decide(runtime, 'http_request', 'allow');
    const result = await replay('skill-allowed');
    expect(result).toMatchObject({ status: 'completed', mode: 'deterministic' });
    expect(site.counter.hits('skill-allowed')).toBe(1);
    expectRan(await runtime.store.events.list(result.run_id), 'step_0', rule);
  });

  it('blocked: nothing lands, and the replay fails with PolicyBlockedError naming the rule', async () => {
    const rule = await decide(runtime, 'http_request', 'block');
    const result = await replay('skill-blocked');
    expect(result).toMatchObject({ status: 'failed', error: { name: 'PolicyBlockedError' }, writes: [{ step: 0, made: true, ok: false }] });
    expect(result.error?.message).toContain(rule.reason);
    expect(site.counter.hits('skill-blocked')).toBe(0);
    expectBlocked(await runtime.store.events.list(result.run_id), 'step_0', rule);
  });

  it('require_approval: with no approver attached the call is refused, nothing lands, and the replay says why', async () => {
    const rule = await decide(runtime, 'http_request', 'require_approval');
    const result = await replay('skill-denied');
    expect(result).toMatchObject({ status: 'failed', error: { name: 'ApprovalDeniedError' } });
    expect(result.error?.message).toContain(APPROVAL_REASON);
    expect(site.counter.hits('skill-denied')).toBe(0);
    expectDenied(await runtime.store.events.list(result.run_id), 'step_0', rule, APPROVAL_REASON);
  });
});

describe('direct calls: `forge tools call` on the built binary', () => {
  let home: string;
  let runtime: ForgeRuntime;
  beforeAll(async () => {
    home = await newHome();
    // The rules are saved here, in the home the binary opens; the binary reads them from the store.
    runtime = await openTestRuntime(home, [site.allowHost]);
  });
  afterAll(async () => {
    await runtime?.close();
  });

  /** `forge tools call http_request --json`: its exit code and the outcome it prints. */
  async function callFromCli(label: string): Promise<{ code: number | null; outcome: { run_id: string; ok: boolean; error?: { name: string; message: string } } }> {
    const called = await runCli(['tools', 'call', 'http_request', '--json', '--input', JSON.stringify(postTo(label))], { FORGE_HOME: home, FORGE_ALLOW_HOSTS: site.allowHost });
    expect(called.stderr).not.toMatch(/\n\s+at /);
    return { code: called.code, outcome: JSON.parse(called.stdout) as { run_id: string; ok: boolean; error?: { name: string; message: string } } };
  }

  it('allowed: the call runs, and its POST lands once', async () => {
    const rule = await decide(runtime, 'http_request', 'allow');
    const { code, outcome } = await callFromCli('cli-allowed');
    expect(code).toBe(0);
    expect(outcome.ok).toBe(true);
    expect(site.counter.hits('cli-allowed')).toBe(1);
    expectRan(await runtime.store.events.list(outcome.run_id), 'direct', rule);
  });

  it('blocked: nothing lands, and the command fails with PolicyBlockedError naming the rule', async () => {
    const rule = await decide(runtime, 'http_request', 'block');
    const { code, outcome } = await callFromCli('cli-blocked');
    expect(code).toBe(1);
    expect(outcome).toMatchObject({ ok: false, error: { name: 'PolicyBlockedError', message: expect.stringContaining(rule.reason) } });
    expect(site.counter.hits('cli-blocked')).toBe(0);
    expectBlocked(await runtime.store.events.list(outcome.run_id), 'direct', rule);
  });

  it('require_approval: nobody can answer a direct call, so it is refused, nothing lands, and the command says why', async () => {
    const rule = await decide(runtime, 'http_request', 'require_approval');
    const { code, outcome } = await callFromCli('cli-denied');
    expect(code).toBe(1);
    expect(outcome).toMatchObject({ ok: false, error: { name: 'ApprovalDeniedError', message: expect.stringContaining(APPROVAL_REASON) } });
    expect(outcome).not.toHaveProperty('awaiting_approval');
    expect(site.counter.hits('cli-denied')).toBe(0);
    expectDenied(await runtime.store.events.list(outcome.run_id), 'direct', rule, APPROVAL_REASON);
  });
});

describe('the HTTP API (`forge serve` in process)', () => {
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let client: ForgeClient;
  beforeAll(async () => {
    runtime = await openTestRuntime(await newHome(), [site.allowHost]);
    server = await serveApi(runtime, { port: 0 });
    client = new ForgeClient({ baseUrl: server.listener.origin });
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
  });

  /** Saves the rule through the API, as an operator would. */
  async function decideOverApi(decision: Decision): Promise<SavedRule> {
    return savedRule(await client.setPolicyRule(ruleFor('http_request', decision)), 'http_request', decision);
  }

  describe('POST /api/v1/runs: agent runs, their approvals answered through the API', () => {
    async function startRun(label: string) {
      const started = await client.startRun({ task: scriptCall(label, 'http_request', postTo(label)), model: MODEL });
      return { runId: started.run_id, read: await client.readEvents(started.run_id) };
    }

    it('allowed: the call runs, and its POST lands once', async () => {
      const rule = await decideOverApi('allow');
      const { read } = await startRun('api-run-allowed');
      expect(read.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
      expect(site.counter.hits('api-run-allowed')).toBe(1);
      expectRan(read.events, 'api-run-allowed', rule);
    });

    it('blocked: nothing lands, and the model is told PolicyBlockedError with the rule', async () => {
      const rule = await decideOverApi('block');
      const { read } = await startRun('api-run-blocked');
      expect(read.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
      expect(site.counter.hits('api-run-blocked')).toBe(0);
      expectBlocked(read.events, 'api-run-blocked', rule);
      expect(shownToModel.get('api-run-blocked')).toContain(`Error (PolicyBlockedError): Policy blocked tool "http_request": ${rule.reason}`);
    });

    it('require_approval, denied through the API: nothing lands before or after, and the model is told the reason', async () => {
      const rule = await decideOverApi('require_approval');
      const { runId, read } = await startRun('api-run-denied');
      expect(read.events.at(-1)).toMatchObject({ type: 'run-pause', waiting_on: ['api-run-denied'] });
      expect(site.counter.hits('api-run-denied')).toBe(0);
      expect(await client.answerApproval(runId, 'api-run-denied', 'deny', { reason: DENIAL_REASON })).toMatchObject({ approval: { status: 'denied' }, resumed: true });
      const rest = await client.readEvents(runId, { afterSeq: read.lastSeq });
      expect(rest.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
      expect(site.counter.hits('api-run-denied')).toBe(0);
      const events = [...read.events, ...rest.events];
      expect(eventsOf(events, 'api-run-denied')).toContainEqual(expect.objectContaining({ type: 'approval-answer', decision: 'denied', reason: DENIAL_REASON }));
      expectDenied(events, 'api-run-denied', rule, DENIAL_REASON);
      expect(shownToModel.get('api-run-denied')).toContain(`Error (ApprovalDeniedError): Tool "http_request" needs approval and was not approved: ${DENIAL_REASON}`);
    });
  });

  describe('POST /api/v1/tools/:tool/call: direct calls', () => {
    type ToolCallAnswer = { run_id: string; status: string; output: string | null; error: { name: string; message: string } | null };

    async function callOverApi(label: string): Promise<ToolCallAnswer> {
      const response = await fetch(`${server.listener.origin}/api/v1/tools/http_request/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: postTo(label) }) });
      expect(response.status).toBe(200);
      return (await response.json()) as ToolCallAnswer;
    }

    it('allowed: the call runs, and its POST lands once', async () => {
      const rule = await decideOverApi('allow');
      const called = await callOverApi('api-call-allowed');
      expect(called).toMatchObject({ status: 'completed', error: null });
      expect(site.counter.hits('api-call-allowed')).toBe(1);
      expectRan(await runtime.store.events.list(called.run_id), 'direct', rule);
    });

    it('blocked: nothing lands, and the answer says PolicyBlockedError naming the rule', async () => {
      const rule = await decideOverApi('block');
      const called = await callOverApi('api-call-blocked');
      expect(called).toMatchObject({ status: 'failed', output: null, error: { name: 'PolicyBlockedError', message: expect.stringContaining(rule.reason) } });
      expect(site.counter.hits('api-call-blocked')).toBe(0);
      expectBlocked(await runtime.store.events.list(called.run_id), 'direct', rule);
    });

    it('require_approval: nobody answers a direct call, so it is refused, nothing lands, and the answer says why', async () => {
      const rule = await decideOverApi('require_approval');
      const called = await callOverApi('api-call-denied');
      expect(called).toMatchObject({ status: 'failed', output: null, error: { name: 'ApprovalDeniedError', message: expect.stringContaining(APPROVAL_REASON) } });
      expect(site.counter.hits('api-call-denied')).toBe(0);
      expectDenied(await runtime.store.events.list(called.run_id), 'direct', rule, APPROVAL_REASON);
    });
  });
});

describe("Forge's own MCP server (/mcp of `forge serve`): an exposed tool and a published skill", () => {
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let client: Client;
  const events: ForgeEvent[] = [];
  beforeAll(async () => {
    runtime = await openTestRuntime(await newHome(), [site.allowHost]);
    await savePostSkill(runtime, 'served-skill-recording');
    runtime.bus.subscribe((event) => events.push(event));
    server = await serveApi(runtime, { port: 0, mcp: { exposedTools: ['http_request'], publishedSkills: ['post-note'] } });
    client = new Client({ name: 'policy-paths-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.listener.origin}/mcp`)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['http_request', 'skill_post-note']);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await runtime?.close();
  });

  /** Calls `name` over MCP: its text, whether it is an error, and the events of the run it made. */
  async function callOverMcp(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; events: ForgeEvent[] }> {
    const mark = events.length;
    const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text?: string }[]; isError?: boolean };
    const runIds = new Set(events.slice(mark).filter((event) => event.type === 'run-start').map((event) => event.run_id));
    expect(runIds.size).toBe(1);
    const [runId] = [...runIds];
    return { text: result.content.map((part) => part.text ?? '').join(''), isError: result.isError === true, events: await runtime.store.events.list(runId!) };
  }

  const cases = [
    { kind: 'exposed tool', name: 'http_request', callId: 'direct', args: postTo },
    { kind: 'published skill', name: 'skill_post-note', callId: 'step_0', args: (label: string) => ({ url: site.url(label), body: label }) },
  ] as const;

  for (const { kind, name, callId, args } of cases) {
    const prefix = `served-${name}`;

    it(`${kind}, allowed: the call runs, and its POST lands once`, async () => {
      const rule = await decide(runtime, 'http_request', 'allow');
      const called = await callOverMcp(name, args(`${prefix}-allowed`));
      expect(called.isError).toBe(false);
      expect(site.counter.hits(`${prefix}-allowed`)).toBe(1);
      expectRan(called.events, callId, rule);
    });

    it(`${kind}, blocked: nothing lands, and the client gets an error result saying PolicyBlockedError with the rule`, async () => {
      const rule = await decide(runtime, 'http_request', 'block');
      const called = await callOverMcp(name, args(`${prefix}-blocked`));
      expect(called.isError).toBe(true);
      expect(called.text).toContain(`Policy blocked tool "http_request": ${rule.reason}`);
      expect(site.counter.hits(`${prefix}-blocked`)).toBe(0);
      expectBlocked(called.events, callId, rule);
    });

    it(`${kind}, require_approval: nobody answers an MCP client's call, so it is refused, nothing lands, and the client is told why`, async () => {
      const rule = await decide(runtime, 'http_request', 'require_approval');
      const called = await callOverMcp(name, args(`${prefix}-denied`));
      expect(called.isError).toBe(true);
      expect(called.text).toContain(APPROVAL_REASON);
      expect(site.counter.hits(`${prefix}-denied`)).toBe(0);
      expectDenied(called.events, callId, rule, APPROVAL_REASON);
    });
  }
});
