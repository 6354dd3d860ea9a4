import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../core/index.js';
import { DEFAULT_CALL_GUARD_SETTINGS } from '../tools/index.js';
import { configFromEnvironment, loadConfig } from './forge-config.js';

describe('the call-guard settings', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'forge-config-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('default to a 300 s cache, a 120 s timeout, 60 calls a minute of a tool and 300 of a run, blocking after 3 failures', () => {
    expect(configFromEnvironment({}, folder).callGuards).toEqual({ ...DEFAULT_CALL_GUARD_SETTINGS, toolTimeoutsMs: new Map() });
    expect(DEFAULT_CALL_GUARD_SETTINGS).toMatchObject({ cacheTtlMs: 300_000, timeoutMs: 120_000, toolCallsPerMinute: 60, runCallsPerMinute: 300, failuresToBlock: 3 });
  });

  it('read seconds and per-tool timeouts from the environment, 0 turning the cache and the limits off', () => {
    const settings = configFromEnvironment({ FORGE_TOOL_CACHE_TTL: '0', FORGE_TOOL_TIMEOUT: '30', FORGE_TOOL_TIMEOUTS: ' read_url=5, request_tool = 600 ', FORGE_TOOL_RATE_LIMIT: '0', FORGE_RUN_TOOL_RATE_LIMIT: '0' }, folder).callGuards;

    expect(settings).toMatchObject({ cacheTtlMs: 0, timeoutMs: 30_000, toolCallsPerMinute: 0, runCallsPerMinute: 0 });
    expect([...settings.toolTimeoutsMs]).toEqual([['read_url', 5_000], ['request_tool', 600_000]]);
  });

  it('refuse a timeout entry that is not name=seconds, and a timeout of 0, naming the variable', () => {
    for (const [variable, value] of [['FORGE_TOOL_TIMEOUTS', 'read_url'], ['FORGE_TOOL_TIMEOUTS', 'read_url=0'], ['FORGE_TOOL_TIMEOUTS', 'read_url=1.5'], ['FORGE_TOOL_TIMEOUT', '0'], ['FORGE_TOOL_CACHE_TTL', '-1']] as const) {
      const attempt = () => configFromEnvironment({ [variable]: value }, folder);
      expect(attempt).toThrow(ConfigurationError);
      expect(attempt).toThrow(variable);
    }
  });

  it('come from forge.config.json too, where 0 is allowed for the cache and the limits', async () => {
    await writeFile(path.join(folder, 'forge.config.json'), JSON.stringify({ version: 1, tool_cache_ttl: 0, tool_rate_limit: 0, tool_timeouts: ['read_url=9'] }));

    const settings = loadConfig({ FORGE_HOME: path.join(folder, 'home') }, folder).callGuards;

    expect(settings).toMatchObject({ cacheTtlMs: 0, toolCallsPerMinute: 0, runCallsPerMinute: 300 });
    expect([...settings.toolTimeoutsMs]).toEqual([['read_url', 9_000]]);
  });
});
