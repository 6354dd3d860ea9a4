import { afterEach, beforeEach, describe } from 'vitest';
import { describeAccountsContract } from './accounts-contract.js';
import { describeAgentsContract } from './agents-contract.js';
import { describeConversationsContract } from './conversations-contract.js';
import { describeDurabilityContract } from './durability-contract.js';
import { describeEventsContract } from './events-contract.js';
import { describeMarketplaceContract } from './marketplace-contract.js';
import { describeMcpServersContract } from './mcp-servers-contract.js';
import { describePoliciesContract } from './policies-contract.js';
import { describeProviderKeysContract } from './provider-keys-contract.js';
import { describeModelCallsContract } from './model-calls-contract.js';
import { describeQuotasContract } from './quotas-contract.js';
import { describeRunStatesContract } from './run-states-contract.js';
import { describeRunsContract } from './runs-contract.js';
import { describeSchedulesContract } from './schedules-contract.js';
import { describeSkillsContract } from './skills-contract.js';
import { describeStatsContract } from './stats-contract.js';
import { describeStepsContract } from './steps-contract.js';
import type { StoreContractContext, StoreUnderTest } from './store-under-test.js';
import { describeToolboxContract } from './toolbox-contract.js';
import { describeTransactionsContract } from './transactions-contract.js';

export type { StoreUnderTest } from './store-under-test.js';

/**
 * The behaviour every `Store` implementation must have, as one vitest suite written against the
 * interface alone, one contract per aggregate: the libSQL store and the PostgreSQL store run exactly
 * these tests. `createStore` is called once per test and must return an empty, migrated database.
 */
export function describeStoreContract(name: string, createStore: () => Promise<StoreUnderTest>, options: { durable: boolean }): void {
  describe(`Store contract: ${name}`, () => {
    let current: StoreUnderTest | undefined;
    const context: StoreContractContext = {
      subject() {
        if (current === undefined) throw new Error('The store contract reads its subject only inside a test.');
        return current;
      },
    };

    beforeEach(async () => {
      current = await createStore();
    });

    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    describeRunsContract(context);
    describeEventsContract(context);
    describeTransactionsContract(context);
    describeStepsContract(context);
    describeConversationsContract(context);
    describeModelCallsContract(context);
    describeSkillsContract(context);
    describeMcpServersContract(context);
    describeToolboxContract(context);
    describeStatsContract(context);
    describeRunStatesContract(context);
    describeAccountsContract(context);
    describeMarketplaceContract(context);
    describeProviderKeysContract(context);
    describePoliciesContract(context);
    describeAgentsContract(context);
    describeSchedulesContract(context);
    describeQuotasContract(context);
    // Databases that vanish on close (memory) have nothing to reopen; durable ones must pass this.
    if (options.durable) describeDurabilityContract(context);
  });
}
