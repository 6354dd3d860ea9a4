import { describe, expect, it } from 'vitest';
import { abstractTrace } from './abstractor.js';
import { analyzeDataflow } from './dataflow.js';
import type { SkillDocument } from './document/skill-document.js';
import { mergeRecording } from './merge-recordings.js';
import { SkillRecordingError } from './skill-errors.js';
import type { Trace } from './trace.js';

const specification = (tool: string) => ({ name: tool, description: tool, inputSchema: { type: 'object' } });
const sideEffects: Record<string, 'read' | 'write'> = { find_customer: 'read', list_invoices: 'read', send_reminder: 'write' };

/** A finished run of find_customer → list_invoices → send_reminder, as recording sees it. */
function trace(runId: string, customer: { name: string; id: string }, invoice: string, days: number, channel: string): Trace {
  const calls = [
    { tool: 'find_customer', input: { name: customer.name }, result: customer.id },
    { tool: 'list_invoices', input: { customer_id: customer.id, overdue_days: days }, result: { invoices: [{ id: invoice, status: 'overdue' }] } },
    { tool: 'send_reminder', input: { invoice_id: invoice, channel }, result: { sent: true } },
  ];
  return {
    runId,
    task: `Remind ${customer.name} about the overdue invoice`,
    model: 'scripted',
    steps: calls.map((call, index) => ({ index, callId: `c${index}`, tool: call.tool, input: call.input, result: call.result, output: JSON.stringify(call.result), error: null, durationMs: 1, producedBy: null })),
    assistantTexts: [],
    answer: 'done',
    completed: true,
  };
}

function skillOf(recorded: Trace): SkillDocument {
  return abstractTrace(recorded, analyzeDataflow(recorded, (tool) => sideEffects[tool]!), { name: 'remind', specification, constants: ['steps[2].channel'] });
}

describe('a skill learns from more than one recording', () => {
  const first = skillOf(trace('run-1', { name: 'alice', id: 'cust-1001' }, 'inv-5001', 30, 'email'));

  it('keeps the bindings both recordings agree with, and turns a read constant that differs into an input', () => {
    const second = skillOf(trace('run-2', { name: 'bob', id: 'cust-2002' }, 'inv-6002', 60, 'email'));
    expect(first.steps[1]!.arguments.find((argument) => argument.path === 'overdue_days')!.binding).toEqual({ kind: 'constant', value: 30, pinned: false });

    const merged = mergeRecording(first, second);

    expect(merged.steps[0]!.arguments).toEqual(first.steps[0]!.arguments);
    expect(merged.steps[1]!.arguments).toEqual([
      { path: 'customer_id', binding: { kind: 'result', step: 0, path: '' } },
      { path: 'overdue_days', binding: { kind: 'input', name: 'overdue_days' } },
    ]);
    expect(merged.variables_schema.properties['overdue_days']).toMatchObject({ type: 'integer', examples: [30, 60] });
    expect(merged.recordings.map((recording) => [recording.run_id, recording.inputs])).toEqual([
      ['run-1', { name: 'alice', overdue_days: 30 }],
      ['run-2', { name: 'bob', overdue_days: 60 }],
    ]);
  });

  it('turns a pinned constant that a later recording contradicts into an input: a value that differs is never a constant', () => {
    const merged = mergeRecording(first, skillOf(trace('run-3', { name: 'carol', id: 'cust-3003' }, 'inv-7003', 30, 'sms')));

    expect(merged.steps[2]!.arguments.find((argument) => argument.path === 'channel')!.binding).toEqual({ kind: 'input', name: 'channel' });
    expect(merged.variables_schema.properties['channel']!.examples).toEqual(['email', 'sms']);
  });

  it('refuses a run that called other tools, naming both sequences', () => {
    const other = skillOf(trace('run-4', { name: 'dave', id: 'cust-4004' }, 'inv-8004', 30, 'email'));
    const shorter = { ...other, steps: other.steps.slice(0, 2) };
    const error = (() => {
      try {
        mergeRecording(first, shorter);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SkillRecordingError);
    expect((error as Error).message).toContain('find_customer → list_invoices where skill "remind" calls find_customer → list_invoices → send_reminder');
  });
});
