import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgeClient } from '../src/client/index.js';
import { openRuntime, type ForgeRuntime } from '../src/compose/index.js';
import { serveApi, type ApiServer } from '../src/server/api/index.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { scriptAgent } from './support/synthesis-script.js';

const PASSWORD = 'a long enough password';
const SECRET = 'ALICE-ONLY-4f1c9a';

/**
 * Issue 26, finding 3: with the workspace tools on, one account must not read, list, search or write
 * another's files. Each account works in a folder of its own under the workspace root; the file jail
 * still holds against a path that climbs from one account's folder into another's, and the shell runs
 * in the caller's folder with the other accounts' out of its sight.
 */
describe("each account works in its own workspace: another account's files are out of reach", () => {
  let world: EngineWorld;
  let runtime: ForgeRuntime;
  let server: ApiServer;
  let aliceId: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    world = await startEngineWorld();
    runtime = await openRuntime({ ...world.env, FORGE_MODEL: 'openai:agent-model', FORGE_ENABLE_TOOLS: 'files,shell' }, world.home, { mcp: { startupWaitMs: 0 }, server: true });
    aliceId = (await runtime.accounts.addUser({ email: 'alice@example.com', password: PASSWORD })).id;
    await runtime.accounts.addUser({ email: 'bob@example.com', password: PASSWORD });
    // Direct calls cannot be approved: the installation lets the shell run without one here.
    await runtime.policies.setRule('installation', { tool: 'shell', decision: 'allow' }, { author: 'test' });
    server = await serveApi(runtime, { port: 0, auth: 'accounts' });
    for (const who of ['alice', 'bob']) tokens[who] = (await new ForgeClient({ baseUrl: server.listener.origin }).login(`${who}@example.com`, PASSWORD)).access_token;
  });
  afterAll(async () => {
    await server?.close();
    await runtime?.close();
    await world?.close();
  });

  async function callTool(who: string, tool: string, input: unknown): Promise<{ status: string; output: string | null; error: { name: string; message: string } | null }> {
    const response = await fetch(`${server.listener.origin}/api/v1/tools/${tool}/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    const body = (await response.json()) as { status: string; output: string | null; error: { name: string; message: string } | null };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body;
  }

  it('keeps the file tools of one account out of the files of another, whatever the path', async () => {
    expect(await callTool('alice', 'file_write', { path: 'notes/secret.txt', content: SECRET })).toMatchObject({ status: 'completed' });
    expect((await callTool('alice', 'file_read', { path: 'notes/secret.txt' })).output).toContain(SECRET);

    const read = await callTool('bob', 'file_read', { path: 'notes/secret.txt' });
    expect(read.status).toBe('failed');
    expect(JSON.stringify(read)).not.toContain(SECRET);
    expect(JSON.stringify(await callTool('bob', 'file_list', { path: '.', recursive: true }))).not.toContain('secret.txt');
    expect(JSON.stringify(await callTool('bob', 'file_search', { query: SECRET }))).not.toContain(SECRET);
    // A path that climbs out of Bob's folder into Alice's is the jail's to refuse.
    for (const path of [`../${aliceId}/notes/secret.txt`, `../../accounts/${aliceId}/notes/secret.txt`, `${'../'.repeat(6)}notes/secret.txt`]) {
      const climbed = await callTool('bob', 'file_read', { path });
      expect(climbed.status, path).toBe('failed');
      expect(JSON.stringify(climbed)).not.toContain(SECRET);
    }
    // Bob writing the same path writes his own file; Alice's stays as she wrote it.
    await callTool('bob', 'file_write', { path: 'notes/secret.txt', content: 'bob was here' });
    expect((await callTool('alice', 'file_read', { path: 'notes/secret.txt' })).output).toContain(SECRET);
  });

  it("runs the shell in the caller's workspace, with the other accounts' folders out of its sight", async () => {
    await callTool('alice', 'file_write', { path: 'notes/secret.txt', content: SECRET });
    const shell = await callTool('bob', 'shell', { command: `pwd; ls -la ..; cat notes/secret.txt ../*/notes/secret.txt ../../*/*/notes/secret.txt; grep -rs ${SECRET} ../.. | head -3; true` });
    expect(shell.status, JSON.stringify(shell)).toBe('completed');
    expect(shell.output).not.toContain(SECRET);
    expect(shell.output).not.toContain(aliceId);
  });

  it("gives an agent run the account's workspace too", async () => {
    scriptAgent(world.mock, 'BOB-READS', (turn) => [{ name: 'file_read', arguments: { path: 'notes/secret.txt' } }, { name: 'final_answer', arguments: { answer: 'done' } }][turn]!);
    const bob = new ForgeClient({ baseUrl: server.listener.origin, token: tokens['bob']! });
    const started = await bob.startRun({ task: 'BOB-READS: read the notes', converge: true });
    const { events } = await bob.readEvents(started.run_id);
    const result = events.find((event) => event.type === 'tool-result' && event.tool === 'file_read');
    expect(result).toBeDefined();
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });
});
