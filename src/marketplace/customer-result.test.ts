import { describe, expect, it } from 'vitest';
import { MarketplaceInputError } from './marketplace-errors.js';
import { customerResult } from './marketplace-service.js';
import { checkFormInputs, type ProductForm } from './product-form.js';

describe('what a customer gets of a replay', () => {
  it('hands out only the chosen fields of an object result, and withholds an object no field was chosen of', () => {
    const answer = JSON.stringify({ status: 'shipped', source: 'https://internal.example/x', eta: '2026-12-03' });
    expect(customerResult(answer, ['status', 'eta'])).toBe(JSON.stringify({ status: 'shipped', eta: '2026-12-03' }));
    expect(customerResult(answer, ['status', 'missing'])).toBe(JSON.stringify({ status: 'shipped', missing: null }));
    expect(customerResult(answer, [])).toBeNull();
    expect(customerResult(JSON.stringify([1, 2]), [])).toBeNull();
  });

  it('hands a text answer whole to a product without output fields, and nothing to one that expects an object', () => {
    expect(customerResult('Your order has shipped.', [])).toBe('Your order has shipped.');
    expect(customerResult('Your order has shipped.', ['status'])).toBeNull();
    expect(customerResult(null, [])).toBeNull();
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
