import { NotFoundError, type GuardedFetch, type RiskLevel, type SideEffect } from '../../core/index.js';
import { addVerifiedTool, retestTool, type Toolbox, type ToolboxEntry, type ToolVerification } from './index.js';
import { readableOutput, type ToolRegistry } from '../../tools/index.js';

/** One tool of the catalog, as listings show it. */
export interface ToolRow {
  readonly name: string;
  readonly risk: RiskLevel;
  readonly side_effect: SideEffect;
  readonly description: string;
}

/** One toolbox tool, promoted or not (failed and unfinished tools stay listed), as listings show it. */
/** A toolbox entry the store holds that cannot be read: what is wrong with it, and the command that removes it. */
export interface UnreadableToolboxRow {
  readonly name: string;
  readonly issues: string[];
  readonly hint: string;
}

export type ToolboxRow = Pick<ToolboxEntry, 'name' | 'status' | 'origin' | 'revisions' | 'uses' | 'capabilities' | 'cost_usd' | 'failures'>;

/** What is known of one tool: the catalog's view when it is registered, and the toolbox's when it was synthesized or added. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly registered: boolean;
  /** Registered tools only. */
  readonly risk?: RiskLevel;
  readonly side_effect?: SideEffect;
  readonly input_schema: unknown;
  /** Toolbox tools only: the whole manifest entry, source and test included. */
  readonly toolbox?: ToolboxEntry;
}

export interface ToolServiceParts {
  readonly registry: ToolRegistry;
  readonly toolbox: Toolbox;
  /** The guarded fetch a tool's test may use in the sandbox. */
  readonly fetch: GuardedFetch;
}

/**
 * The tools of a runtime: the catalog (built-in, MCP and promoted tools) and the toolbox (synthesized and
 * hand-added tools, failed ones included), listed, described, added through the verification gate,
 * re-tested and removed. Calling a tool is a run: see `callTool`.
 */
export class ToolService {
  constructor(private readonly parts: ToolServiceParts) {}

  /** Every catalog tool, then every toolbox tool, then the toolbox entries the store holds damaged, each with how to remove it. */
  async list(): Promise<{ readonly tools: ToolRow[]; readonly toolbox: ToolboxRow[]; readonly unreadable: UnreadableToolboxRow[] }> {
    const { registry, toolbox } = this.parts;
    return {
      unreadable: (await toolbox.unreadable()).map((error) => ({ name: error.toolName, issues: [...error.issues], hint: error.hint ?? '' })),
      tools: registry.list().map((tool) => ({ name: tool.name, risk: tool.risk, side_effect: tool.sideEffect, description: readableOutput(tool.description) })),
      toolbox: (await toolbox.list()).map((entry) => ({
        name: entry.name,
        status: entry.status,
        origin: entry.origin,
        revisions: entry.revisions,
        uses: entry.uses,
        capabilities: entry.capabilities,
        cost_usd: entry.cost_usd,
        failures: entry.failures,
      })),
    };
  }

  /**
   * One tool by name: a toolbox tool by its exact name (so failed and unfinished ones can be inspected),
   * else the catalog's, which resolves misspellings or throws `ToolNotFoundError` naming what exists.
   */
  async describe(name: string): Promise<ToolDescription> {
    const { registry, toolbox } = this.parts;
    const listed = await toolbox.get(name);
    const registered = listed === undefined ? registry.resolve(name) : registry.get(name);
    const entry = listed ?? (registered === undefined ? undefined : await toolbox.get(registered.name));
    const specification = registered === undefined ? undefined : registry.specification(registered.name);
    return {
      name: registered?.name ?? entry!.name,
      description: readableOutput(registered?.description ?? entry!.description),
      registered: registered !== undefined,
      ...(registered === undefined ? {} : { risk: registered.risk, side_effect: registered.sideEffect }),
      input_schema: specification?.inputSchema ?? entry!.input_schema,
      ...(entry === undefined ? {} : { toolbox: entry }),
    };
  }

  /**
   * Puts a hand-written tool module and its test through the verification gate (the test must pass
   * against the tool in the sandbox and fail against every stub); a tool that passes is promoted into
   * the toolbox and the catalog, one that fails throws `ToolVerificationError`.
   */
  add(sources: { readonly toolSource: string; readonly testSource: string }): Promise<ToolboxEntry> {
    return addVerifiedTool(this.parts.toolbox, this.parts.registry, { ...sources, fetch: this.parts.fetch });
  }

  /** Puts a toolbox tool's stored module and test through the gate again; reports only, changes nothing. */
  retest(name: string): Promise<{ entry: ToolboxEntry; verification: ToolVerification }> {
    return retestTool(this.parts.toolbox, name, this.parts.fetch);
  }

  /**
   * Removes a toolbox tool: it leaves the catalog (runs already going keep it in their tool set), then
   * the toolbox. Built-in and MCP tools are not in the toolbox: `NotFoundError`.
   */
  async remove(name: string): Promise<void> {
    const { registry, toolbox } = this.parts;
    // Asks the store, not the entry: a damaged entry can always be removed.
    if (!(await toolbox.remove(name))) throw new NotFoundError('toolbox tool', name, 'List the toolbox with `forge tools list`; built-in and MCP tools are not in it.');
    registry.unregister(name);
  }

  /** `--fresh`: every toolbox tool leaves the catalog (runs already going keep theirs), then the store's toolbox and the tools' files are wiped. */
  async wipeToolbox(): Promise<void> {
    const { registry, toolbox } = this.parts;
    for (const entry of await toolbox.promoted()) registry.unregister(entry.name);
    await toolbox.wipe();
  }
}
