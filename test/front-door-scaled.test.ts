import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/core/index.js';
import { openRuntime, startWorker, type ForgeRuntime, type RunWorker } from '../src/compose/index.js';
import { listenHttp, type HttpListener } from '../src/server/http/index.js';
import { createRuntimeMcpEndpoint, type StreamableHttpEndpoint } from '../src/server/mcp/index.js';
import { createSchema, dropSchema, freshSchemaName, postgresTestUrl } from './support/postgres-test-schema.js';
import { redisTestKeys, TEST_REDIS_URL } from './support/redis-test-keys.js';
import { factSkill } from './fixtures/fact-skill.js';

/**
 * The scaled mode through the front door: a server's MCP endpoint submits a published skill's replay,
 * which runs on a worker (a second runtime on the same PostgreSQL schema and Redis prefix), never in the
 * server; a bad request is refused on the server before anything is queued.
 */
describe('the front door in the scaled mode: an MCP-served skill replay runs on a worker', () => {
  const schema = freshSchemaName();
  const keys = redisTestKeys('front-door');
  const homes: string[] = [];
  const lookups: string[] = [];
  const reports: string[] = [];
  let server: ForgeRuntime;
  let workerRuntime: ForgeRuntime;
  let worker: RunWorker;
  let endpoint: StreamableHttpEndpoint;
  let listener: HttpListener;
  let client: Client;

  beforeAll(async () => {
    await createSchema(schema);
    const shared = { FORGE_DATABASE_URL: postgresTestUrl(schema), FORGE_REDIS_URL: TEST_REDIS_URL, FORGE_REDIS_PREFIX: keys.prefix(), FORGE_SECRET_KEY: 'e'.repeat(64) };
    const open = async () => {
      const home = await mkdtemp(path.join(tmpdir(), 'forge-front-door-scaled-'));
      homes.push(home);
      return openRuntime({ ...shared, FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
    };
    server = await open();
    workerRuntime = await open();
    // Only the worker has the skill's tool: a replay in the server process could not run it.
    workerRuntime.registry.register(
      defineTool({
        name: 'lookup_fact',
        description: 'Looks up a fact by key.',
        inputSchema: z.object({ key: z.string().min(1) }),
        risk: 'low',
        sideEffect: 'read',
        async execute({ key }) {
          lookups.push(key);
          return { key, fact: `the fact about ${key}` };
        },
      }),
    );
    await server.store.skills.save({ id: factSkill.id, name: factSkill.name, description: factSkill.description, document: factSkill, note: 'saved' });
    worker = startWorker(workerRuntime, { concurrency: 2, report: (line) => reports.push(line) });
    listener = await listenHttp({ host: '127.0.0.1', port: 0, handle: (request, response) => endpoint.handle(request, response) });
    endpoint = createRuntimeMcpEndpoint(server, { exposedTools: [], publishedSkills: ['fact-lookup'], version: '0.0.0' });
    client = new Client({ name: 'front-door-scaled-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${listener.origin}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await endpoint?.close();
    await listener?.close();
    await worker?.jobs.close();
    await workerRuntime?.close();
    await server?.close();
    await keys.cleanup();
    await keys.close();
    await dropSchema(schema);
    for (const home of homes) await rm(home, { recursive: true, force: true });
  });

  it('replays the published skill on the worker and answers the MCP client with its result', async () => {
    expect(server.mode).toBe('scaled');

    const result = await client.callTool({ name: 'skill_fact-lookup', arguments: { key: 'comets' } });

    expect(result.isError).toBeUndefined();
    // The replay's answer as readable JSON: its content is the contract, not its layout.
    const content = result.content as { type: string; text: string }[];
    expect(content.map((part) => part.type)).toEqual(['text']);
    expect(JSON.parse(content[0]!.text)).toEqual({ key: 'comets', fact: 'the fact about comets' });
    const runId = (result.structuredContent as { run_id: string }).run_id;
    expect(result.structuredContent).toMatchObject({ skill: 'fact-lookup', status: 'completed', mode: 'deterministic', llm_calls: 0 });
    expect(lookups).toEqual(['comets']);
    // The worker ran it: its job's line, and the run's log in the worker's home, not the server's.
    expect(reports).toContain(`run ${runId}: started, now completed`);
    const run = await server.store.runs.get(runId);
    expect(run).toMatchObject({ kind: 'skill', status: 'completed' });
    expect(run!.logFile!.startsWith(homes[1]!)).toBe(true);
  });

  it('refuses a bad request on the server, with the same error as embedded, before anything is queued', async () => {
    const before = await server.store.runs.list();

    const refused = await client.callTool({ name: 'skill_fact-lookup', arguments: { key: '   ' } }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).data).toEqual({ name: 'SkillInputError', message: 'Input "key": is empty.', hint: 'Inputs of fact-lookup: key (string, required, e.g. "tides").' });
    expect(await server.store.runs.list()).toEqual(before);
    expect(worker.tally().failed).toBe(0);
  });
});
