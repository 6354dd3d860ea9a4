import { z } from 'zod';
import { TOOL_NAME_PATTERN, ToolDefinitionError, ToolNotFoundError, type AnyTool } from '../core/index.js';
import { aliasCandidates, normalizeToolName } from './tool-name-aliases.js';

/** JSON Schema as sent to models. */
export type JsonSchema = Record<string, unknown>;

/** What a model is told about a tool. Derived from the tool, never hand-written. */
export interface ToolSpecification {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/**
 * The one registry of every tool Forge can call: built-in, MCP, synthesized. Names are unique and
 * match `^[a-zA-Z0-9_-]{1,64}$`; lookups forgive common naming mistakes (see tool-name-aliases).
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private readonly specificationsByName = new Map<string, ToolSpecification>();

  register(tool: AnyTool): void {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      throw new ToolDefinitionError(tool.name, 'names must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, _ and -, at most 64).');
    }
    if (this.tools.has(tool.name)) throw new ToolDefinitionError(tool.name, 'a tool with this name is already registered.');
    const inputSchema = { ...(tool.inputJsonSchema ?? (z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema)) };
    delete inputSchema['$schema'];
    this.tools.set(tool.name, tool);
    this.specificationsByName.set(tool.name, { name: tool.name, description: tool.description, inputSchema });
  }

  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean {
    this.specificationsByName.delete(name);
    return this.tools.delete(name);
  }

  /** The tool with exactly this name. */
  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  /** The tool a (possibly misspelt) name refers to; throws ToolNotFoundError listing what exists. */
  resolve(name: string): AnyTool {
    const exact = this.tools.get(name);
    if (exact !== undefined) return exact;
    for (const candidate of aliasCandidates(name)) {
      for (const tool of this.tools.values()) {
        if (normalizeToolName(tool.name) === candidate) return tool;
      }
    }
    throw new ToolNotFoundError(name, this.names());
  }

  list(): AnyTool[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  specification(name: string): ToolSpecification | undefined {
    return this.specificationsByName.get(name);
  }

  specifications(): ToolSpecification[] {
    return [...this.specificationsByName.values()];
  }
}
