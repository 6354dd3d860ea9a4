import { TOOL_NAME_PATTERN, ToolDefinitionError, ToolNotFoundError, UnknownToolsError, type AnyTool } from '../core/index.js';
import { aliasCandidates, normalizeToolName } from './tool-name-aliases.js';
import { specificationOf, type ToolSpecification } from './tool-specification.js';

interface ToolSetEntry {
  readonly tool: AnyTool;
  readonly specification: ToolSpecification;
}

/**
 * An immutable set of tools: what one run may call. A run takes its set when it starts (see
 * `ToolRegistry.snapshot`) and dispatch resolves every call from it alone, so a tool registered,
 * replaced or removed in the catalog afterwards (an MCP reconnect, `--fresh`, another run's promotion)
 * never changes a running run. Deriving a set (`with`, `without`, `only`) returns a new one and leaves
 * this one as it was. Names are unique and match `^[a-zA-Z0-9_-]{1,64}$`; `resolve` forgives common
 * naming mistakes (see tool-name-aliases), among this set's tools only.
 */
export class ToolSet {
  static readonly empty = new ToolSet(new Map());

  private constructor(private readonly entries: ReadonlyMap<string, ToolSetEntry>) {}

  /** The tool with exactly this name. */
  get(name: string): AnyTool | undefined {
    return this.entries.get(name)?.tool;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The tool a (possibly misspelt) name refers to; throws ToolNotFoundError listing this set's tools. */
  resolve(name: string): AnyTool {
    const exact = this.entries.get(name);
    if (exact !== undefined) return exact.tool;
    for (const candidate of aliasCandidates(name)) {
      for (const { tool } of this.entries.values()) {
        if (normalizeToolName(tool.name) === candidate) return tool;
      }
    }
    throw new ToolNotFoundError(name, this.names());
  }

  list(): AnyTool[] {
    return [...this.entries.values()].map((entry) => entry.tool);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  specification(name: string): ToolSpecification | undefined {
    return this.entries.get(name)?.specification;
  }

  specifications(): ToolSpecification[] {
    return [...this.entries.values()].map((entry) => entry.specification);
  }

  /**
   * This set and `tools`: a tool whose name is already here replaces that one in its place, new names
   * come last. Throws `ToolDefinitionError` for an invalid name.
   */
  with(tools: readonly AnyTool[]): ToolSet {
    if (tools.length === 0) return this;
    const entries = new Map(this.entries);
    for (const tool of tools) {
      if (!TOOL_NAME_PATTERN.test(tool.name)) {
        throw new ToolDefinitionError(tool.name, 'names must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, _ and -, at most 64).');
      }
      entries.set(tool.name, { tool, specification: specificationOf(tool) });
    }
    return new ToolSet(entries);
  }

  /** This set without the tools of these exact names. */
  without(names: readonly string[]): ToolSet {
    if (!names.some((name) => this.entries.has(name))) return this;
    const entries = new Map(this.entries);
    for (const name of names) entries.delete(name);
    return new ToolSet(entries);
  }

  /**
   * Only the tools of these exact names (no aliases: a tool list is written by a person, not guessed by
   * a model), in this set's order. Throws `UnknownToolsError` naming every name no tool has and listing
   * what this set holds.
   */
  only(names: readonly string[]): ToolSet {
    const unknown = [...new Set(names.filter((name) => !this.entries.has(name)))];
    if (unknown.length > 0) throw new UnknownToolsError(unknown, this.names());
    const wanted = new Set(names);
    return new ToolSet(new Map([...this.entries].filter(([name]) => wanted.has(name))));
  }
}
