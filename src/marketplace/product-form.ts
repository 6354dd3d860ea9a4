import type { SkillDocument } from '../skills/index.js';
import { MarketplaceInputError } from './marketplace-errors.js';

/** One field of a product's customer input form. */
export interface ProductFormField {
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  readonly description: string;
  readonly items?: { readonly type: 'string' | 'number' | 'integer' };
  readonly enum?: (string | number)[];
}

/** The customer input form of a product: a JSON Schema object. */
export interface ProductForm {
  readonly type: 'object';
  readonly properties: Record<string, ProductFormField>;
  readonly required: string[];
  readonly additionalProperties: false;
}

/**
 * The input form customers fill in, generated from the skill's variables schema, keeping only what a
 * form needs: each field's name, type, allowed values and whether it is required. The abstraction's own
 * descriptions (which name the steps and tools an input feeds) and its examples (recorded values) are
 * never part of it; a field is described by its name.
 */
export function productForm(document: SkillDocument): ProductForm {
  const properties: Record<string, ProductFormField> = {};
  for (const [name, variable] of Object.entries(document.variables_schema.properties)) {
    properties[name] = {
      type: variable.type,
      description: `The ${name.replace(/_/g, ' ')}.`,
      ...(variable.items === undefined ? {} : { items: { type: variable.items.type } }),
      ...(variable.enum === undefined ? {} : { enum: [...variable.enum] }),
    };
  }
  return { type: 'object', properties, required: [...document.variables_schema.required], additionalProperties: false };
}

function fits(field: ProductFormField, value: unknown): boolean {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' && value.length <= 10_000;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && value.length <= 1_000 && value.every((item) => fits({ type: field.items?.type ?? 'string', description: '' }, item));
  }
}

/** Checks a customer's inputs against the form alone, so a refusal names only the form's fields. */
export function checkFormInputs(form: ProductForm, inputs: Readonly<Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(inputs)) {
    const field = Object.hasOwn(form.properties, name) ? form.properties[name] : undefined;
    if (field === undefined) throw new MarketplaceInputError(`"${name.slice(0, 60)}" is not a field of this product's form.`, `Its fields: ${Object.keys(form.properties).join(', ') || 'none'}.`);
    if (!fits(field, value)) throw new MarketplaceInputError(`"${name}" must be ${field.type === 'array' ? `a list of ${field.items?.type ?? 'string'}s` : field.type === 'integer' ? 'an integer' : `a ${field.type}`}.`, 'See the product\'s inputs_schema.');
    if (field.enum !== undefined && !field.enum.includes(value as string | number)) throw new MarketplaceInputError(`"${name}" must be one of ${field.enum.join(', ')}.`, 'See the product\'s inputs_schema.');
  }
  for (const name of form.required) {
    if (!Object.hasOwn(inputs, name)) throw new MarketplaceInputError(`"${name}" is required.`, `Required fields: ${form.required.join(', ')}.`);
  }
}
