import { ToolDefinitionError, type AnyTool } from '../core/index.js';
import { ToolSet } from './tool-set.js';
import type { ToolSpecification } from './tool-specification.js';

/**
 * The catalog: the one registry of every tool Forge can call — built-in, MCP, synthesized — as it is
 * now. Registering and removing replace its current `ToolSet` with a new one; `snapshot` hands out the
 * current one, so a run's tools are fixed when it takes them: later changes (an MCP server's new tool
 * list, `--fresh`, a tool another run promoted) reach runs started afterwards, never a running one.
 * Names are unique and match `^[a-zA-Z0-9_-]{1,64}$`; lookups forgive common naming mistakes (see
 * tool-name-aliases).
 */
export class ToolRegistry {
  private current = ToolSet.empty;

  register(tool: AnyTool): void {
    if (this.current.has(tool.name)) throw new ToolDefinitionError(tool.name, 'a tool with this name is already registered.');
    this.current = this.current.with([tool]);
  }

  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean {
    const registered = this.current.has(name);
    this.current = this.current.without([name]);
    return registered;
  }

  /**
   * The catalog as it is now, as an immutable set, with `extra` tools (an account's own toolbox tools)
   * after the catalog's (a catalog tool of the same name wins); with `allow`, only the tools of those
   * exact names (throws `UnknownToolsError` naming the ones that do not exist and listing what does).
   */
  snapshot(allow?: readonly string[], extra: readonly AnyTool[] = []): ToolSet {
    const available = this.current.with(extra.filter((tool) => !this.current.has(tool.name)));
    return allow === undefined ? available : available.only(allow);
  }

  /** The tool with exactly this name. */
  get(name: string): AnyTool | undefined {
    return this.current.get(name);
  }

  /** The tool a (possibly misspelt) name refers to; throws ToolNotFoundError listing what exists. */
  resolve(name: string): AnyTool {
    return this.current.resolve(name);
  }

  list(): AnyTool[] {
    return this.current.list();
  }

  names(): string[] {
    return this.current.names();
  }

  specification(name: string): ToolSpecification | undefined {
    return this.current.specification(name);
  }

  specifications(): ToolSpecification[] {
    return this.current.specifications();
  }
}
