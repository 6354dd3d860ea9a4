import type { SkillDocument, VariablesSchema } from './document/skill-document.js';

/**
 * What a customer of a packaged skill sees: the contract (name, description, the input form's schema,
 * what a result looks like), never the implementation (steps, bindings, tools, recording, provenance).
 */
export interface SkillProductView {
  readonly name: string;
  readonly description: string;
  readonly version: number;
  readonly inputs_schema: VariablesSchema;
  readonly output: { readonly steps: number; readonly non_empty: boolean };
}

export function skillProductView(document: SkillDocument): SkillProductView {
  return {
    name: document.name,
    description: document.description,
    version: document.version,
    inputs_schema: document.variables_schema,
    output: { steps: document.output_contract.steps.length, non_empty: document.output_contract.final_non_empty },
  };
}
