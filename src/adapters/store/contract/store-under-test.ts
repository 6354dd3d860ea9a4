import type { Store } from '../../../core/index.js';

/** A store handed to the contract suite, with what the suite needs around it. */
export interface StoreUnderTest {
  readonly store: Store;
  /**
   * Opens a new store on the same database, after the suite has closed `store`. Give it for databases
   * that outlive their store (files, servers); leave it out for ones that vanish on close (memory).
   */
  readonly reopen?: () => Promise<Store>;
  /** Closes every store this subject handed out, `store` and reopened ones, and removes the database. */
  cleanup(): Promise<void>;
}

/** What each aggregate's contract reads its subject from: the one the current test was given. */
export interface StoreContractContext {
  /** The subject of the running test (a fresh, empty, migrated database per test). */
  subject(): StoreUnderTest;
}
