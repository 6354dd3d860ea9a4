import type { EventOf, ForgeEvent, HaltReason, RunKind, RunStatus } from './events.js';
import type { ModelCallRecord } from './model.js';
import type { ApprovalStore } from './approval-store.js';
import type { RunStateStore } from './run-state-store.js';
import type { StatsStore } from './stats-store.js';

/** The process that runs a run: while it lives, nobody else may call the run interrupted. */
export interface RunOwner {
  readonly pid: number;
  readonly host: string;
}

export interface RunRecord {
  readonly id: string;
  readonly kind: RunKind;
  readonly task: string;
  readonly model: string;
  readonly status: RunStatus;
  readonly haltReason: HaltReason | null;
  readonly answer: string | null;
  readonly conversationId: string | null;
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
  /** The error message when the run failed. */
  readonly error: string | null;
  /** Who runs it; null for runs stored before owners were recorded. */
  readonly owner: RunOwner | null;
  /** Its run log (`FORGE_HOME/runs/…jsonl`); null for runs stored before it was recorded. */
  readonly logFile: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type NewRun = Pick<RunRecord, 'id' | 'task' | 'model' | 'conversationId'> & Partial<Pick<RunRecord, 'kind' | 'owner' | 'logFile'>>;
export type RunUpdate = Partial<Pick<RunRecord, 'status' | 'haltReason' | 'answer' | 'llmCalls' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'error'>>;

/** One tool call of a run, as executed through dispatch. */
export interface StepRecord {
  readonly runId: string;
  /** Position of the step within its run, from 0. */
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  readonly input: unknown;
  /** The text fed back to the model (capped), or null when the call failed. */
  readonly output: string | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly createdAt: string;
}

export type NewStep = Omit<StepRecord, 'createdAt'>;

export interface ConversationRecord {
  readonly id: string;
  readonly title: string | null;
  readonly createdAt: string;
}

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/**
 * One message of a conversation. `content` is the provider-neutral message content (text, tool
 * calls, tool results) exactly as the loop sent or received it, so history replays byte for byte.
 */
export interface MessageRecord {
  readonly id: number;
  readonly conversationId: string;
  readonly runId: string | null;
  readonly role: MessageRole;
  readonly content: unknown;
  /** Tool-call ids this message carries (assistant tool calls or tool results). */
  readonly toolCallIds: readonly string[];
  readonly model: string | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly createdAt: string;
}

export type NewMessage = Omit<MessageRecord, 'id' | 'conversationId' | 'createdAt'>;

export interface RunStore {
  create(run: NewRun): Promise<RunRecord>;
  update(id: string, update: RunUpdate): Promise<RunRecord>;
  /**
   * Takes a stopped or paused run over for `owner`, atomically: when its status is one of `from`, it
   * becomes `running` with no halt reason or error, and true is returned; otherwise nothing changes and
   * false is returned (another process claimed it first, or it is in no state to go on).
   */
  claim(id: string, owner: RunOwner, from: readonly RunStatus[]): Promise<boolean>;
  get(id: string): Promise<RunRecord | undefined>;
  /** Newest first; only runs in one of `statuses` when given. */
  list(options?: { limit?: number; statuses?: readonly RunStatus[] }): Promise<RunRecord[]>;
}

export interface EventStore {
  append(event: ForgeEvent): Promise<void>;
  /**
   * Appends several events, far cheaper than one `append` each. Atomic inside `Store.transaction`;
   * outside one, up to 100 events go in per statement.
   */
  appendAll(events: readonly ForgeEvent[]): Promise<void>;
  /** In `seq` order. */
  list(runId: string): Promise<ForgeEvent[]>;
}

export interface StepStore {
  record(step: NewStep): Promise<void>;
  /** Records several steps, far cheaper than one `record` each; atomic inside `Store.transaction`. */
  recordAll(steps: readonly NewStep[]): Promise<void>;
  /** In `index` order. */
  list(runId: string): Promise<StepRecord[]>;
}

export interface ConversationStore {
  create(options?: { id?: string; title?: string | null }): Promise<ConversationRecord>;
  get(id: string): Promise<ConversationRecord | undefined>;
  list(options?: { limit?: number }): Promise<ConversationRecord[]>;
  /** Appends in order, atomically: either all messages are written or none. */
  appendMessages(conversationId: string, messages: readonly NewMessage[]): Promise<MessageRecord[]>;
  /** Oldest first. With `lastN`, only the newest `lastN` messages (still oldest first). */
  listMessages(conversationId: string, options?: { lastN?: number }): Promise<MessageRecord[]>;
}

export interface ModelCallStore {
  record(call: ModelCallRecord): Promise<void>;
  /** Records several calls, far cheaper than one `record` each; atomic inside `Store.transaction`. */
  recordAll(calls: readonly ModelCallRecord[]): Promise<void>;
  list(runId: string): Promise<ModelCallRecord[]>;
}

export type SkillStatus = 'active' | 'stale';

/**
 * A stored skill at one of its versions. `document` is the portable skill document exactly as the
 * skills module wrote it (versioned JSON; the store never interprets it). `name` is unique; saving a
 * document under an existing name adds a version (the skill keeps its id and creation time) and makes
 * it the current one. Versions are immutable: nothing ever changes a saved version's document.
 */
export interface SkillRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly document: unknown;
  readonly status: SkillStatus;
  /** Why the skill is stale; null while it is active. */
  readonly staleReason: string | null;
  /** The version this record shows (the current one unless a version was asked for). */
  readonly version: number;
  /** The skill's current version. */
  readonly currentVersion: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One version of a skill: its document and where it came from (its lineage). */
export interface SkillVersionRecord {
  readonly skillId: string;
  readonly version: number;
  readonly document: unknown;
  /** What made it: `saved from run 5f0c…`, `recording from run 7a1b… added`, `pinned steps[2].subject`, `rolled back to version 1`. */
  readonly note: string;
  /** The version it was derived from; null for a first version. */
  readonly parentVersion: number | null;
  readonly createdAt: string;
}

export interface NewSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly document: unknown;
  /** What makes this version (kept as its lineage note). */
  readonly note: string;
  /** The version this one derives from; default: the current version, if the skill exists. */
  readonly parentVersion?: number | null;
}

export interface SkillStore {
  /** Creates the skill at version 1, or adds the next version to the one with the same name (active again). */
  save(skill: NewSkill): Promise<SkillRecord>;
  /** By id or by name; at `version` when given (undefined when the skill or the version does not exist). */
  get(idOrName: string, version?: number): Promise<SkillRecord | undefined>;
  /** Every version of a skill, oldest first; empty for an unknown skill. */
  versions(idOrName: string): Promise<SkillVersionRecord[]>;
  /** Oldest first, each at its current version. */
  list(): Promise<SkillRecord[]>;
  /** Marks a skill stale with its reason, or active again with `reason: null`; throws NotFoundError for an unknown skill. */
  setStatus(idOrName: string, status: SkillStatus, reason: string | null): Promise<SkillRecord>;
  /** Deletes the skill with every version; returns whether it existed. */
  delete(idOrName: string): Promise<boolean>;
}

/** How Forge talks to a remote MCP server. `stdio` exists only for the local CLI's explicit opt-in. */
export type McpTransportKind = 'streamable-http' | 'sse' | 'stdio';

/**
 * A remote MCP server the user added. The record outlives the process: on start Forge reconnects to
 * every stored server. Header values (tokens, API keys) are stored only sealed by the secret box;
 * the store never sees them in clear.
 */
export interface McpServerRecord {
  /** Unique; the `{server}` in `mcp__{server}__{tool}`. */
  readonly name: string;
  readonly transport: McpTransportKind;
  /** The endpoint URL (for `stdio`, the command line as a JSON array: `["command", "arg", …]`). */
  readonly url: string;
  /** The sealed JSON of the header map, or null when the server needs no headers. */
  readonly sealedHeaders: string | null;
  /** Remote tool names to register; null registers every tool the server offers. */
  readonly enabledTools: readonly string[] | null;
  /**
   * Whether the server's `readOnlyHint` annotations are believed. False by default: its tools are then
   * all treated as tools that may write, so a skill replay proves every argument before calling them.
   */
  readonly trustAnnotations: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type NewMcpServer = Omit<McpServerRecord, 'createdAt' | 'updatedAt'>;
export type McpServerUpdate = Partial<Pick<McpServerRecord, 'url' | 'transport' | 'sealedHeaders' | 'enabledTools'>>;

export interface McpServerStore {
  /** Throws `DuplicateRecordError` when a server with this name exists. */
  create(server: NewMcpServer): Promise<McpServerRecord>;
  get(name: string): Promise<McpServerRecord | undefined>;
  /** Oldest first, so servers reconnect in the order they were added. */
  list(): Promise<McpServerRecord[]>;
  /** Changes only the given fields; throws `NotFoundError` for an unknown name. */
  update(name: string, update: McpServerUpdate): Promise<McpServerRecord>;
  /** Returns whether it existed. */
  delete(name: string): Promise<boolean>;
}

/** Where a toolbox entry stands: the statuses the `toolbox-change` event reports. */
export type ToolboxRecordStatus = EventOf<'toolbox-change'>['status'];

/**
 * The store's copy of one toolbox manifest entry. The manifest file (`FORGE_HOME/toolbox/manifest.json`)
 * is the source of truth; the toolbox writes each entry here after the file, so the store can list and
 * query tools. `entry` is the manifest entry exactly as the toolbox wrote it (the store never interprets
 * it); `name`, `status` and `updatedAt` are copies of its fields, kept as columns for lookup and listing.
 */
export interface ToolboxRecord {
  /** Unique: putting a record under a stored name replaces that record. */
  readonly name: string;
  readonly status: ToolboxRecordStatus;
  readonly entry: Readonly<Record<string, unknown>>;
  /** The entry's own last-change time (ISO-8601 UTC), not the time the store wrote it. */
  readonly updatedAt: string;
}

export interface ToolboxStore {
  /** Stores the record, or replaces the one with its name (which keeps its place in `list`). */
  put(record: ToolboxRecord): Promise<void>;
  get(name: string): Promise<ToolboxRecord | undefined>;
  /** In the order names were first put. Every record reads back exactly as it was put. */
  list(): Promise<ToolboxRecord[]>;
  /** Returns whether it existed. */
  delete(name: string): Promise<boolean>;
  /** Deletes every record (`--fresh` wipes the toolbox). */
  clear(): Promise<void>;
}

/**
 * The writes a running run makes as it goes. Inside `Store.transaction` they are collected, not run:
 * each call resolves at once, and they commit together when the work is done. Nothing read back.
 */
export interface RunWrites {
  readonly runs: { update(id: string, update: RunUpdate): Promise<void> };
  readonly events: Pick<EventStore, 'append' | 'appendAll'>;
  readonly steps: Pick<StepStore, 'record' | 'recordAll'>;
  readonly modelCalls: Pick<ModelCallStore, 'record' | 'recordAll'>;
}

/**
 * The one persistence interface. Implementations (libSQL embedded, PostgreSQL at scale) must pass the
 * same contract suite. Every write is committed when its promise resolves; what a committed write
 * survives (a killed process, a power loss) each implementation documents.
 */
export interface Store {
  /**
   * Collects the writes `work` makes and commits them together, or none of them (the first failure,
   * e.g. a `DuplicateRecordError`, is rethrown; a `work` that throws writes nothing). Lets a recorder
   * persist a burst of events in one unit instead of one each. `work` must not wait on the store.
   */
  transaction(work: (writes: RunWrites) => Promise<void>): Promise<void>;
  readonly runs: RunStore;
  readonly events: EventStore;
  readonly steps: StepStore;
  readonly conversations: ConversationStore;
  readonly modelCalls: ModelCallStore;
  readonly skills: SkillStore;
  readonly mcpServers: McpServerStore;
  /** The mirror of the toolbox manifest; the file stays the source of truth. */
  readonly toolbox: ToolboxStore;
  /** Aggregate reads over stored runs (`forge stats`). */
  readonly stats: StatsStore;
  /** Each loop run's last checkpoint (`forge run --resume`). */
  readonly runStates: RunStateStore;
  /** Calls waiting for, or answered by, a person. */
  readonly approvals: ApprovalStore;
  close(): Promise<void>;
}
