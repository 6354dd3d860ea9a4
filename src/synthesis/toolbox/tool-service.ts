import { NotFoundError, type AnyTool, type GuardedFetch, type RiskLevel, type SideEffect } from '../../core/index.js';
import { accountToolsOf, addVerifiedTool, registerPromotedTool, retestTool, ToolPromotionError, type Toolbox, type ToolboxEntry, type ToolVerification } from './index.js';
import { readableOutput, specificationOf, type ToolRegistry } from '../../tools/index.js';

/** One tool of the catalog, as listings show it. */
export interface ToolRow {
  readonly name: string;
  readonly risk: RiskLevel;
  readonly side_effect: SideEffect;
  readonly description: string;
  /** `installation`: offered to every run (built-in, MCP, promoted toolbox tools); `account`: the viewer's own toolbox tool, offered to its runs alone. */
  readonly scope: 'installation' | 'account';
}

/**
 * Who looks at the tools: an account (its own toolbox tools are listed with the installation's), and
 * whether it is an admin (who sees every account's toolbox entries, to judge them for promotion). The
 * operator of a server without accounts, and the CLI, is `OPERATOR_VIEWER`.
 */
export interface ToolViewer {
  readonly accountId: string | null;
  readonly admin: boolean;
}

export const OPERATOR_VIEWER: ToolViewer = { accountId: null, admin: true };

/** One toolbox tool, promoted or not (failed and unfinished tools stay listed), as listings show it. */
/** A toolbox entry the store holds that cannot be read: what is wrong with it, and the command that removes it. */
export interface UnreadableToolboxRow {
  readonly name: string;
  readonly issues: string[];
  readonly hint: string;
}

export type ToolboxRow = Pick<ToolboxEntry, 'name' | 'status' | 'origin' | 'revisions' | 'uses' | 'capabilities' | 'cost_usd' | 'failures' | 'owner'>;

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

  /**
   * Every catalog tool and the viewer's own toolbox tools, then the toolbox tools the viewer may see
   * (an admin: all, each with its owner), then the toolbox entries the store holds damaged, each with
   * how to remove it.
   */
  async list(viewer: ToolViewer = OPERATOR_VIEWER): Promise<{ readonly tools: ToolRow[]; readonly toolbox: ToolboxRow[]; readonly unreadable: UnreadableToolboxRow[] }> {
    const { registry, toolbox } = this.parts;
    const row = (tool: AnyTool, scope: ToolRow['scope']): ToolRow => ({ name: tool.name, risk: tool.risk, side_effect: tool.sideEffect, description: readableOutput(tool.description), scope });
    return {
      unreadable: (await toolbox.unreadable()).map((error) => ({ name: error.toolName, issues: [...error.issues], hint: error.hint ?? '' })),
      tools: [...registry.list().map((tool) => row(tool, 'installation')), ...(await this.accountTools(viewer.accountId)).filter((tool) => registry.get(tool.name) === undefined).map((tool) => row(tool, 'account'))],
      toolbox: (viewer.admin ? await toolbox.list() : await toolbox.visibleTo(viewer.accountId)).map((entry) => ({
        name: entry.name,
        status: entry.status,
        origin: entry.origin,
        revisions: entry.revisions,
        uses: entry.uses,
        capabilities: entry.capabilities,
        cost_usd: entry.cost_usd,
        failures: entry.failures,
        owner: entry.owner,
      })),
    };
  }

  /**
   * One tool by name: a toolbox tool by its exact name (so failed and unfinished ones can be inspected),
   * else the catalog's, which resolves misspellings or throws `ToolNotFoundError` naming what exists.
   */
  async describe(name: string, viewer: ToolViewer = OPERATOR_VIEWER): Promise<ToolDescription> {
    const { registry, toolbox } = this.parts;
    const stored = await toolbox.get(name);
    // Another account's toolbox tool is not there for this viewer (an admin sees every one).
    const listed = stored === undefined || stored.owner === null || stored.owner === viewer.accountId || viewer.admin ? stored : undefined;
    const own = listed?.owner !== null && listed?.owner === viewer.accountId ? (await this.accountTools(viewer.accountId)).find((tool) => tool.name === name) : undefined;
    const registered = listed === undefined ? registry.resolve(name) : (registry.get(name) ?? own);
    const entry = listed ?? (registered === undefined ? undefined : await toolbox.get(registered.name));
    const specification = registered === undefined ? undefined : (registry.specification(registered.name) ?? (own === undefined ? undefined : specificationOf(own)));
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

  /** The tools a run of `owner` is offered besides the catalog's: its account's own verified toolbox tools (none for the operator). */
  accountTools(owner: string | null): Promise<AnyTool[]> {
    return accountToolsOf(this.parts.toolbox, owner);
  }

  /** Puts a toolbox tool's stored module and test through the gate again; reports only, changes nothing. */
  retest(name: string): Promise<{ entry: ToolboxEntry; verification: ToolVerification }> {
    return retestTool(this.parts.toolbox, name, this.parts.fetch);
  }

  /**
   * Promotes an account's verified toolbox tool into the installation's toolbox: from now on every run
   * started is offered it, as any promoted tool. An admin's act (the routes check it): the tool's
   * description and source are text an account wrote, shown to every model from then on, so read them
   * first (`forge tools show <name>`, GET /toolbox). Refused (`ToolPromotionError`) for a tool that did
   * not pass its gate or whose name a built-in or MCP tool has; an installation tool is returned as it is.
   */
  async promote(name: string): Promise<ToolboxEntry> {
    const { registry, toolbox } = this.parts;
    const entry = await toolbox.get(name);
    if (entry === undefined) throw new NotFoundError('toolbox tool', name, 'List the toolbox with `forge tools list` (GET /api/v1/toolbox).', 'name');
    if (entry.owner === null) return entry;
    if (entry.status !== 'promoted') throw new ToolPromotionError(name, `it is ${entry.status}, and only a tool that passed its verification gate is shared`, `See why with \`forge tools show ${name}\`.`);
    if (registry.get(name) !== undefined) throw new ToolPromotionError(name, 'a built-in or MCP tool has its name', 'Disconnect that MCP server, or leave the tool in its account.');
    if (!(await toolbox.share(name))) throw new NotFoundError('toolbox tool', name, 'It was removed meanwhile.', 'name');
    const shared = (await toolbox.get(name))!;
    registerPromotedTool(registry, toolbox, shared);
    return shared;
  }

  /**
   * Removes a toolbox tool: it leaves the catalog (runs already going keep it in their tool set), then
   * the toolbox. Built-in and MCP tools are not in the toolbox: `NotFoundError`.
   */
  async remove(name: string): Promise<void> {
    const { registry, toolbox } = this.parts;
    // Asks the store, not the entry: a damaged entry can always be removed.
    if (!(await toolbox.remove(name))) throw new NotFoundError('toolbox tool', name, 'List the toolbox with `forge tools list`; built-in and MCP tools are not in it.', 'name');
    registry.unregister(name);
  }

  /** `--fresh`: every toolbox tool leaves the catalog (runs already going keep theirs), then the store's toolbox and the tools' files are wiped. */
  async wipeToolbox(): Promise<void> {
    const { registry, toolbox } = this.parts;
    for (const entry of await toolbox.promoted()) registry.unregister(entry.name);
    await toolbox.wipe();
  }
}
