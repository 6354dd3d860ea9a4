import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { LoopMessage } from '../../engine/index.js';
import type { GuardedFetch, ModelCallRecord, TokenUsage } from '../../core/index.js';
import type { RunEmitter } from '../../events/index.js';
import { costOfCalls, type CostMeter, type ResolvedModel } from '../../llm/index.js';
import { warmSandbox, type SandboxLimits } from '../sandbox/index.js';
import { describeVerificationFailure, verifyTool, type Toolbox, type ToolboxEntry, type ToolVerification } from '../toolbox/index.js';
import { authorRequestMessage, authorSystemPrompt, testerRequestMessage, testerSystemPrompt } from './synthesis-prompts.js';
import { inputJsonSchemaFromSignature } from './signature-schema.js';
import { requestSubmission, type Submission } from './submit-source.js';
import type { ToolRequest } from './tool-request.js';

/** Revisions after the first draft before a tool is marked failed. */
export const MAX_REVISIONS = 3;

export interface SynthesisEnvironment {
  /** Writes and revises the tool (FORGE_MODEL). */
  readonly author: ResolvedModel;
  /** Writes the black-box test in its own conversation (FORGE_TEST_MODEL). */
  readonly tester: ResolvedModel;
  readonly toolbox: Toolbox;
  /** Whose toolbox the tool goes to: the account whose run asked (null: the installation's). */
  readonly owner: string | null;
  readonly emitter: RunEmitter;
  readonly meter: CostMeter;
  /** The guarded fetch lent to tools that declare `fetch` while their tests run. */
  readonly fetch: GuardedFetch;
  readonly signal: AbortSignal;
  readonly maxRetries?: number;
  readonly limits?: Partial<SandboxLimits>;
  /** The agent turn that asked, for the model-call events. */
  readonly iteration: number;
}

/** How a synthesis ended, with everything it cost. */
export interface SynthesisOutcome {
  readonly status: 'promoted' | 'failed';
  readonly entry: ToolboxEntry;
  readonly revisions: number;
  readonly failures: readonly string[];
  readonly llmCalls: number;
  readonly tokens: TokenUsage;
  readonly costUsd: number | null;
  /** True when the tool used up its revisions: flagged loudly in the log and the summary. */
  readonly flagged: boolean;
}

interface Party {
  readonly messages: LoopMessage[];
  submission: Submission | undefined;
}

function feedback(party: Party, text: string): void {
  const call = party.submission?.call;
  if (call === undefined) {
    party.messages.push({ role: 'user', content: [{ type: 'text', text }] });
    return;
  }
  party.messages.push(
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: call.callId, toolName: call.name, input: call.input ?? {} }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.callId, toolName: call.name, output: { type: 'error-text', value: text } }] } satisfies LanguageModelV3Message,
  );
}

function blankEntry(request: ToolRequest, owner: string | null): ToolboxEntry {
  const now = new Date().toISOString();
  return {
    name: request.name,
    description: request.purpose,
    status: 'draft',
    origin: 'synthesized',
    source: '',
    test: '',
    revisions: 0,
    uses: 0,
    capabilities: [],
    capabilities_used: [],
    input_schema: inputJsonSchemaFromSignature(request.signature),
    failures: [],
    cost_usd: 0,
    owner,
    created_at: now,
    updated_at: now,
  };
}

/**
 * request_tool's pipeline: the author writes the tool, the tester (a separate conversation that sees only
 * the contract) writes a test, and the harness verifies them in the sandbox (test passes on the tool,
 * fails on every stub, capabilities used ⊆ declared). A failing tool goes back to the author with the
 * sandbox output; a test that passes a stub goes back to the tester. After `MAX_REVISIONS` revisions the
 * tool is marked failed and stays listed. Every state change is persisted and emitted.
 */
export async function synthesizeTool(request: ToolRequest, environment: SynthesisEnvironment): Promise<SynthesisOutcome> {
  const { toolbox, emitter } = environment;
  // The models take seconds to write; meanwhile the sandbox gets a worker ready for the verification.
  warmSandbox();
  const records: ModelCallRecord[] = [];
  const scratch = path.join(toolbox.folder, 'scratch', request.name);
  const author: Party = { messages: [{ role: 'user', content: [{ type: 'text', text: authorRequestMessage(request) }] }], submission: undefined };
  const tester: Party = { messages: [{ role: 'user', content: [{ type: 'text', text: testerRequestMessage(request) }] }], submission: undefined };
  const submit = async (party: Party, role: 'author' | 'tester') => {
    party.submission = await requestSubmission({
      model: role === 'author' ? environment.author : environment.tester,
      system: role === 'author' ? authorSystemPrompt() : testerSystemPrompt(),
      messages: party.messages,
      tool: role === 'author' ? 'submit_tool' : 'submit_test',
      purpose: role === 'author' ? 'tool-author' : 'tool-test',
      emitter,
      meter: environment.meter,
      iteration: environment.iteration,
      signal: environment.signal,
      maxRetries: environment.maxRetries ?? 2,
    });
    records.push(party.submission.record);
  };
  const cost = () => costOfCalls(records.map((record) => record.costUsd)).costUsd;
  const change = (entry: ToolboxEntry) =>
    emitter.emit({ type: 'toolbox-change', tool: entry.name, status: entry.status, revisions: entry.revisions, uses: entry.uses });

  let entry = await toolbox.put(blankEntry(request, environment.owner));
  change(entry);
  let failures: string[] = [];
  let passed: Extract<ToolVerification, { passed: true }> | undefined;
  let reviseTool = true;
  let rewriteTest = true;
  let revision = 0;
  try {
    for (; ; revision += 1) {
      if (reviseTool) await submit(author, 'author');
      if (rewriteTest) await submit(tester, 'tester');
      const toolSource = author.submission?.source ?? '';
      const testSource = tester.submission?.source ?? '';
      entry = await toolbox.put({ ...entry, status: 'testing', source: toolSource, test: testSource, revisions: revision, cost_usd: cost(), updated_at: new Date().toISOString() });
      change(entry);
      const verification = await verifyOrExplain(request, author.submission, tester.submission, environment, scratch);
      if (verification.passed) {
        passed = verification;
        break;
      }
      failures = [...verification.failures];
      const output = verification.testRun === undefined ? verification.failures.join('\n') : describeVerificationFailure({ ...verification, testRun: verification.testRun });
      emitter.emit({ type: 'verification-failed', tool: request.name, revision, output });
      if (revision >= MAX_REVISIONS) break;
      const toolAtFault = verification.fault === 'tool';
      reviseTool = toolAtFault;
      rewriteTest = !toolAtFault;
      feedback(toolAtFault ? author : tester, `${output}\n\n${toolAtFault ? 'Revise the tool and call submit_tool with the complete module.' : 'Rewrite the test so it fails on such stubs, and call submit_test.'}`);
      entry = await toolbox.put({ ...entry, status: 'draft', revisions: revision + 1, failures, updated_at: new Date().toISOString() });
      change(entry);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }

  const promoted = passed !== undefined;
  const tool = passed?.testRun.tool;
  entry = await toolbox.put({
    ...entry,
    status: promoted ? 'promoted' : 'failed',
    revisions: revision,
    failures: promoted ? [] : failures,
    cost_usd: cost(),
    ...(tool === undefined || passed === undefined
      ? {}
      : {
          description: tool.meta.description,
          input_schema: inputJsonSchemaFromSignature(request.signature),
          capabilities: [...tool.meta.capabilities],
          capabilities_used: [...passed.testRun.capabilitiesUsed],
        }),
    updated_at: new Date().toISOString(),
  });
  change(entry);
  const tokens = records.reduce((sum, record) => ({ input: sum.input + record.inputTokens, output: sum.output + record.outputTokens }), { input: 0, output: 0 });
  const flagged = !promoted;
  const spent = costOfCalls(records.map((record) => record.costUsd));
  emitter.emit({
    type: 'synthesis-end',
    tool: request.name,
    status: promoted ? 'promoted' : 'failed',
    revisions: revision,
    llm_calls: records.length,
    tokens,
    cost_usd: spent.costUsd,
    cost_usd_known: spent.pricedCostUsd,
    unpriced_calls: spent.unpricedCalls,
    flagged,
    failures: entry.failures,
  });
  return { status: entry.status === 'promoted' ? 'promoted' : 'failed', entry, revisions: revision, failures: entry.failures, llmCalls: records.length, tokens, costUsd: cost(), flagged };
}

type Explained = ToolVerification | { readonly passed: false; readonly fault: 'tool' | 'test'; readonly failures: readonly string[]; readonly testRun?: undefined };

/** Verifies the submissions, or explains why there is nothing to verify (a protocol slip, a wrong name). */
async function verifyOrExplain(
  request: ToolRequest,
  authorSubmission: Submission | undefined,
  testerSubmission: Submission | undefined,
  environment: SynthesisEnvironment,
  scratch: string,
): Promise<Explained> {
  if (authorSubmission?.source === undefined) return { passed: false, fault: 'tool', failures: [authorSubmission?.problem ?? 'no tool was submitted'] };
  if (testerSubmission?.source === undefined) return { passed: false, fault: 'test', failures: [testerSubmission?.problem ?? 'no test was submitted'] };
  const verification = await verifyTool({
    toolSource: authorSubmission.source,
    testSource: testerSubmission.source,
    hostCapabilities: { fetch: environment.fetch, jailRoot: scratch },
    ...(environment.limits === undefined ? {} : { limits: environment.limits }),
  });
  const name = verification.testRun.tool?.meta.name;
  if (verification.passed && name !== request.name) {
    return { passed: false, fault: 'tool', failures: [`meta.name is "${name}", but the requested tool is "${request.name}"`] };
  }
  return verification;
}

