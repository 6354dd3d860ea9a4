import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgeClient } from '../src/client/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

const PASSWORD = 'a long enough password';

/**
 * Issue 26, finding 4: one account must not exhaust the browser for everyone. Four quick
 * `browser_open` calls, each a run that ends at once, used to hold all four browser contexts for the
 * idle timeout (5 minutes); a run's context now closes when the run ends.
 */
describe('a run that ends gives its browser context back', () => {
  let world: EngineWorld;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    world = await startEngineWorld();
    runtime = await openRuntime({ ...world.env, FORGE_ENABLE_TOOLS: 'browser', FORGE_CHROMIUM_PATH: '/usr/bin/chromium' }, world.home, { mcp: { startupWaitMs: 0 }, server: true });
    for (const who of ['mallory', 'bob']) await runtime.accounts.addUser({ email: `${who}@example.com`, password: PASSWORD });
    server = await serveApi(runtime, { port: 0, auth: 'accounts' });
    for (const who of ['mallory', 'bob']) tokens[who] = (await new ForgeClient({ baseUrl: server.listener.origin }).login(`${who}@example.com`, PASSWORD)).access_token;
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await world?.close();
  });

  async function open(who: string): Promise<{ status: string; error: { name: string; message: string } | null }> {
    const response = await fetch(`${server.listener.origin}/api/v1/tools/browser_open/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { url: world.web.pages.article } }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { status: string; error: { name: string; message: string } | null };
  }

  it("four quick browser_open calls of one account leave the browser free for another's", async () => {
    for (let index = 0; index < 4; index += 1) expect(await open('mallory')).toMatchObject({ status: 'completed' });
    const bob = await open('bob');
    expect(bob.error).toBeNull();
    expect(bob.status).toBe('completed');
  });
});
