import type { AccountStore, AgentStore, ApprovalStore, ConversationStore, EventStore, MarketplaceStore, McpServerStore, ModelCallStore, PolicyStore, ProviderKeyStore, QuotaStore, RunStateStore, RunStore, RunWrites, ScheduleStore, SkillStore, StatsStore, StepStore, Store, ToolboxStore } from '../../../core/index.js';
import type { SqlDialect } from '../migrations/index.js';
import { listTables } from './list-tables.js';
import type { SqlAccess, SqlRow } from './sql-access.js';
import { SqlAccountStore } from './sql-account-store.js';
import { SqlAgentStore } from './sql-agent-store.js';
import { SqlApprovalStore } from './sql-approval-store.js';
import { SqlConversationStore } from './sql-conversation-store.js';
import { SqlEventStore } from './sql-event-store.js';
import { SqlMarketplaceStore } from './sql-marketplace-store.js';
import { SqlMcpServerStore } from './sql-mcp-server-store.js';
import { SqlModelCallStore } from './sql-model-call-store.js';
import { SqlPolicyStore } from './sql-policy-store.js';
import { SqlProviderKeyStore } from './sql-provider-key-store.js';
import { SqlQuotaStore } from './sql-quota-store.js';
import { SqlRunStateStore } from './sql-run-state-store.js';
import { SqlRunStore } from './sql-run-store.js';
import { SqlRunWrites } from './sql-run-writes.js';
import { SqlScheduleStore } from './sql-schedule-store.js';
import { SqlSkillStore } from './sql-skill-store.js';
import { SqlStatsStore } from './sql-stats-store.js';
import { SqlStepStore } from './sql-step-store.js';
import { SqlToolboxStore } from './sql-toolbox-store.js';
import type { StoreTables } from './store-tables.js';
import type { TableCatalog, TableShape } from './table-catalog.js';
import { countRows, tableRows } from './table-rows.js';

/**
 * A `Store` over any SQL engine that offers `SqlAccess`: every table store speaks to the database only
 * through it, so the libSQL and the PostgreSQL stores differ only in how they run statements and commit
 * a write unit, never in what they store. `transaction` collects the writes of `work` as the steps of
 * one unit and commits it with the same `write` as every other write: all of it or none.
 *
 * Its tables can also be read as plain rows (`StoreTables`, for `copyStore`), listed from the engine's
 * catalog as `catalog` says.
 */
export abstract class SqlStore implements Store, StoreTables {
  readonly runs: RunStore;
  readonly events: EventStore;
  readonly steps: StepStore;
  readonly conversations: ConversationStore;
  readonly modelCalls: ModelCallStore;
  readonly skills: SkillStore;
  readonly mcpServers: McpServerStore;
  readonly toolbox: ToolboxStore;
  readonly stats: StatsStore;
  readonly runStates: RunStateStore;
  readonly approvals: ApprovalStore;
  readonly accounts: AccountStore;
  readonly marketplace: MarketplaceStore;
  readonly providerKeys: ProviderKeyStore;
  readonly quotas: QuotaStore;
  readonly policies: PolicyStore;
  readonly agents: AgentStore;
  readonly schedules: ScheduleStore;

  protected constructor(
    private readonly sql: SqlAccess,
    private readonly catalog: TableCatalog,
    dialect: SqlDialect,
  ) {
    this.runs = new SqlRunStore(sql);
    this.events = new SqlEventStore(sql);
    this.steps = new SqlStepStore(sql);
    this.conversations = new SqlConversationStore(sql);
    this.modelCalls = new SqlModelCallStore(sql);
    this.skills = new SqlSkillStore(sql);
    this.mcpServers = new SqlMcpServerStore(sql);
    this.toolbox = new SqlToolboxStore(sql);
    this.stats = new SqlStatsStore(sql);
    this.runStates = new SqlRunStateStore(sql);
    this.approvals = new SqlApprovalStore(sql);
    this.accounts = new SqlAccountStore(sql);
    this.marketplace = new SqlMarketplaceStore(sql);
    this.providerKeys = new SqlProviderKeyStore(sql);
    this.quotas = new SqlQuotaStore(sql);
    this.policies = new SqlPolicyStore(sql);
    this.agents = new SqlAgentStore(sql);
    this.schedules = new SqlScheduleStore(sql, dialect);
  }

  async transaction(work: (writes: RunWrites) => Promise<void>): Promise<void> {
    const writes = new SqlRunWrites();
    await work(writes);
    await this.sql.write(writes.collected);
  }

  listTables(): Promise<TableShape[]> {
    return listTables(this.sql, this.catalog);
  }

  countRows(table: TableShape): Promise<number> {
    return countRows(this.sql, table);
  }

  readRows(table: TableShape, batchSize: number): AsyncIterable<SqlRow[]> {
    return tableRows(this.sql, table, batchSize);
  }

  abstract close(): Promise<void>;
}
