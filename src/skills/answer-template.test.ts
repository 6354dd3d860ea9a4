import { describe, expect, it } from 'vitest';
import { abstractAnswer } from './answer-template.js';
import { bindAnswerTemplate } from './replay/replay-answer.js';

const httpResult = (body: unknown) => ({ status: 200, url: 'http://10.1.2.3:8080/api/orders', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), truncated: false });

describe('an answer template, abstracted from the recorded answer and bound to a replay', () => {
  it('binds inputs and result values (JSON bodies read as JSON), keeps the wording, and states the fresh values', () => {
    const recorded = httpResult({ order_id: 'W2890441', status: 'shipped', eta: '2026-12-03', total: 1299.5 });
    const template = abstractAnswer('Order W2890441 is shipped; it arrives on 2026-12-03 and cost 1,299.50.', [recorded], { order_id: 'W2890441' }, 'Where is order W2890441?');
    expect(template).toEqual({
      kind: 'text',
      template: 'Order {{order_id}} is {{status}}; it arrives on {{eta}} and cost {{total}}.',
      slots: { order_id: { kind: 'input', name: 'order_id' }, status: { kind: 'result', step: 0, path: 'body.status' }, eta: { kind: 'result', step: 0, path: 'body.eta' }, total: { kind: 'result', step: 0, path: 'body.total', decimals: 2 } },
    });
    const fresh = httpResult({ order_id: 'W5550001', status: 'packed', eta: '2026-12-09', total: 20 });
    expect(bindAnswerTemplate(template!, [fresh], { order_id: 'W5550001' })).toEqual({
      answer: 'Order W5550001 is packed; it arrives on 2026-12-09 and cost 20.00.',
      outputs: { order_id: 'W5550001', status: 'packed', eta: '2026-12-09', total: 20 },
      unbound: [],
    });
  });

  it('marks what nothing explains as unbound: a count the model made, words it summarised from a page', () => {
    const page = 'Kestrel 3.1 release notes. The scheduler now batches timers and the cache is sharded.';
    const template = abstractAnswer('Kestrel 3.1 changed 2 things: timers are batched and the cache is sharded.', [page], { topic: 'kestrel' }, 'What changed in kestrel?');
    expect(template?.kind).toBe('text');
    const unbound = Object.values(template!.kind === 'text' ? template!.slots : {}).filter((slot) => slot.kind === 'unbound');
    expect(unbound.map((slot) => (slot.kind === 'unbound' ? slot.recorded : ''))).toEqual(expect.arrayContaining(['3.1', '2', 'timers', 'cache', 'sharded']));
    const bound = bindAnswerTemplate(template!, ['Kestrel 4.0 release notes.'], { topic: 'kestrel' });
    expect(bound.answer).toBeUndefined();
    expect(bound.unbound.length).toBeGreaterThan(0);
  });

  it("keeps an agent's structured outputs typed: each field binds whole, or is a text template, or is unbound", () => {
    const result = { items: [{ sku: 'A-100', price: 12.5 }], in_stock: true, warehouse: 'north' };
    const template = abstractAnswer(JSON.stringify({ sku: 'A-100', price: 12.5, in_stock: true, note: 'Ships from north', count: 3 }), [result], {}, 'Check the first item.');
    expect(template).toEqual({
      kind: 'outputs',
      fields: {
        sku: { kind: 'result', step: 0, path: 'items[0].sku' },
        price: { kind: 'result', step: 0, path: 'items[0].price' },
        in_stock: { kind: 'result', step: 0, path: 'in_stock' },
        note: { kind: 'text', template: 'Ships from {{warehouse}}', slots: { warehouse: { kind: 'result', step: 0, path: 'warehouse' } } },
        count: { kind: 'unbound', recorded: '3' },
      },
    });
    const bound = bindAnswerTemplate(template!, [{ items: [{ sku: 'B-7', price: 3 }], in_stock: false, warehouse: 'south' }], {});
    expect(bound.outputs).toEqual({ sku: 'B-7', price: 3, in_stock: false, note: 'Ships from south', count: null });
    expect(bound.answer).toBeUndefined();
  });

  it('has no template for a run without an answer', () => {
    expect(abstractAnswer(null, [{}], {}, 'x')).toBeUndefined();
    expect(abstractAnswer('   ', [{}], {}, 'x')).toBeUndefined();
  });
});
