import type { AccountStore } from './account-store.js';
import type { MarketplaceStore } from './marketplace-store.js';
import type { ProviderKeyStore } from './provider-key-store.js';
import type { QuotaStore } from './quota-store.js';
import type { ApprovalStore } from './approval-store.js';
import type { PolicyStore } from './policy-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { AgentStore } from './agent-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { EventStore } from './event-store.js';
import type { McpServerStore } from './mcp-server-store.js';
import type { ModelCallStore } from './model-call-store.js';
import type { RunStateStore } from './run-state-store.js';
import type { RunStore } from './run-store.js';
import type { RunWrites } from './run-writes.js';
import type { SkillStore } from './skill-store.js';
import type { StatsStore } from './stats-store.js';
import type { StepStore } from './step-store.js';
import type { ToolboxStore } from './toolbox-store.js';

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
  /** The toolbox of synthesized and added tools: its only source of truth. */
  readonly toolbox: ToolboxStore;
  /** Aggregate reads over stored runs (`forge stats`). */
  readonly stats: StatsStore;
  /** Each loop run's last checkpoint (`forge run --resume`). */
  readonly runStates: RunStateStore;
  /** Calls waiting for, or answered by, a person; standing "approve always" grants. */
  readonly approvals: ApprovalStore;
  /** Versioned policy documents per scope. */
  readonly policies: PolicyStore;
  /** Work that fires every so often, claimed once per slot however many processes claim (see `claimDue`). */
  readonly schedules: ScheduleStore;
  /** Agent definitions and their immutable versions. */
  readonly agents: AgentStore;
  /** Users, their sessions and service keys (`forge serve` with accounts). */
  readonly accounts: AccountStore;
  /** Skills packaged as products, and the ledger of their customer runs. */
  readonly marketplace: MarketplaceStore;
  /** Accounts' model provider keys, sealed at rest. */
  readonly providerKeys: ProviderKeyStore;
  /** Per-account and per-key quotas, and the counts they are enforced against. */
  readonly quotas: QuotaStore;
  close(): Promise<void>;
}
