import { describe, expect, it } from 'vitest';
import { MarketplaceInputError } from './marketplace-errors.js';
import { customerResult } from './marketplace-service.js';
import { checkFormInputs, type ProductForm } from './product-form.js';

describe('what a customer gets of a replay', () => {
  const wrapped = '<untrusted-content-0123456789ab source="http_request">\n{"status":200,"url":"http://10.0.0.5:8080/orders","body":"{}"}\n</untrusted-content-0123456789ab>';
  const replay = (answer: string | null, outputs: Record<string, unknown>, source: 'template' | 'model' | 'results' | null, status: 'completed' | 'failed' = 'completed') => ({ status, answer, outputs, answer_source: source });

  it('hands out only the declared output fields of the replay\'s outputs (missing ones null)', () => {
    const outputs = { status: 'shipped', eta: '2026-12-03', source: 'https://internal.example/x' };
    expect(customerResult(replay('Order W1 has shipped.', outputs, 'template'), ['status', 'eta'])).toBe(JSON.stringify({ status: 'shipped', eta: '2026-12-03' }));
    expect(customerResult(replay('Order W1 has shipped.', outputs, 'template'), ['status', 'missing'])).toBe(JSON.stringify({ status: 'shipped', missing: null }));
    expect(customerResult(replay(wrapped, { status: 200 }, 'results'), ['status'])).toBe(JSON.stringify({ status: 200 }));
  });

  it('hands a product without output fields the answer only when its template made it, never a raw result or a model\'s reading of one', () => {
    expect(customerResult(replay('Order W1 has shipped.', {}, 'template'), [])).toBe('Order W1 has shipped.');
    expect(customerResult(replay(wrapped, {}, 'results'), [])).toBeNull();
    expect(customerResult(replay('The order at http://10.0.0.5:8080 shipped.', {}, 'model'), [])).toBeNull();
    expect(customerResult(replay(null, {}, null, 'failed'), ['status'])).toBeNull();
  });
});

describe('a product form checks a customer\'s inputs', () => {
  const form: ProductForm = {
    type: 'object',
    properties: { order_id: { type: 'string', description: 'The order id.' }, size: { type: 'string', description: 'The size.', enum: ['S', 'M'] }, count: { type: 'integer', description: 'The count.' } },
    required: ['order_id'],
    additionalProperties: false,
  };

  it('accepts inputs that fit', () => {
    expect(() => checkFormInputs(form, { order_id: 'W1', size: 'M', count: 2 })).not.toThrow();
  });

  it.each([
    [{}, /"order_id" is required/],
    [{ order_id: 1 }, /must be a string/],
    [{ order_id: 'W1', size: 'XL' }, /one of S, M/],
    [{ order_id: 'W1', count: 1.5 }, /must be an integer/],
    [{ order_id: 'W1', __proto__x: 1 }, /not a field/],
  ])('refuses %j naming only the form', (inputs, message) => {
    expect(() => checkFormInputs(form, inputs)).toThrow(MarketplaceInputError);
    expect(() => checkFormInputs(form, inputs)).toThrow(message);
  });
});
