import { z } from 'zod';
import type { AnyTool } from '../core/index.js';

/** JSON Schema as sent to models. */
export type JsonSchema = Record<string, unknown>;

/** What a model is told about a tool. Derived from the tool, never hand-written. */
export interface ToolSpecification {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** The tool as a model is told about it: its own JSON Schema when it brought one, else one derived from its zod schema. */
export function specificationOf(tool: AnyTool): ToolSpecification {
  const inputSchema = { ...(tool.inputJsonSchema ?? (z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema)) };
  delete inputSchema['$schema'];
  return { name: tool.name, description: tool.description, inputSchema };
}
