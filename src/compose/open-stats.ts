import { hostname } from 'node:os';
import { endInterruptedRuns, processAlive } from '../runs/index.js';
import { StatsService } from '../stats/index.js';
import { openStore } from '../adapters/store/index.js';
import { loadConfig, type Environment } from '../config/forge-config.js';

/**
 * Opens the store alone, not the whole runtime (no MCP servers, no toolbox, no tools: `forge stats`
 * starts about 0.1 s sooner for it), ends the runs whose process died as opening the runtime does, and
 * returns the stats service over it with the function that closes the store.
 */
export async function openStats(env: Environment, cwd: string = process.cwd()): Promise<{ stats: StatsService; close(): Promise<void> }> {
  const config = loadConfig(env, cwd);
  const store = await openStore({ url: config.databaseUrl });
  try {
    const host = hostname();
    await endInterruptedRuns(store, (owner) => processAlive(owner, host));
  } catch (error) {
    await store.close();
    throw error;
  }
  return { stats: new StatsService(store, config.databaseUrl), close: () => store.close() };
}
