import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/built-cli.js';
import { requestsMentioning, startEngineWorld, type EngineWorld } from './support/engine-world.js';

const MODEL = 'openai:gpt-4.1-mini';

const bookkeeper = (prompt: string, writes: 'allowed' | 'disabled', extra = '') => `version: 1
name: Bookkeeper
slug: bookkeeper
tools:
  read_url: allowed
  http_request: ${writes}
parameters:
  - name: account
    type: text
    required: true
  - name: depth
    type: enum
    values: [quick, thorough]
    default: quick
system_prompt: "${prompt}"
${extra}`;

/** Agent definitions from the built CLI, each command its own process: versions, diff, rollback, export, runs pinned to a version. */
describe('forge agent and forge run --agent', () => {
  let world: EngineWorld;
  const file = (name: string) => path.join(world.home, name);

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: 'audit the books', hasToolResult: false }, { content: 'Audited.' });
    await writeFile(file('v1.yaml'), bookkeeper('First prompt for {{ params.account }}.', 'allowed'));
    await writeFile(file('v2.yaml'), bookkeeper('Audit {{ params.account }} ({{ params.depth }}).{% for tool in system.tools %} [{{ tool.name }}]{% endfor %}', 'disabled'));
    await writeFile(file('secret.yaml'), bookkeeper('x', 'allowed', 'description: "uses sk-proj-4f9aX2b7Qm1Lz8Rt0Vw3Yk6Ns5Pd"\n'));
  });
  afterAll(async () => {
    await world?.close();
  });

  it('versions a definition, runs the version named with --param, and pins the run to it', async () => {
    expect((await runCli(['agent', 'create', '--file', file('v1.yaml')], world.env)).code).toBe(0);
    const edited = await runCli(['agent', 'edit', 'bookkeeper', '--file', file('v2.yaml'), '--message', 'read only', '--json'], world.env);
    expect(edited.code, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({ version: { version: 2, message: 'read only', changed_fields: expect.arrayContaining(['tools.http_request', 'system_prompt']) } });
    const rolled = await runCli(['agent', 'rollback', 'bookkeeper', '1'], world.env);
    expect(rolled.stdout).toContain('now runs version 3 (the definition of v1, saved again)');
    // A rollback saves a new version, as skill and policy rollbacks do; --json names the active one.
    const versions = JSON.parse((await runCli(['agent', 'versions', 'bookkeeper', '--json'], world.env)).stdout) as { active_version: number; versions: { version: number; message: string; changed_fields: string[] }[] };
    expect(versions.active_version).toBe(3);
    expect(versions.versions[0]).toMatchObject({ version: 3, message: 'rollback to v1', changed_fields: expect.arrayContaining(['system_prompt']) });
    expect(versions.versions).toHaveLength(3);

    const run = await runCli(['run', '--no-tui', '--json', '--model', MODEL, '--agent', 'bookkeeper@2', '--param', 'account=ACME-7', '--param', 'depth=thorough', 'audit the books'], world.env);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { run_id: string; answer: string };
    expect(result.answer).toBe('Audited.');
    const shown = JSON.parse((await runCli(['runs', 'show', result.run_id, '--json'], world.env)).stdout) as { agent: unknown };
    expect(shown.agent).toEqual({ slug: 'bookkeeper', version: 2 });
    const [request] = requestsMentioning(world.mock, 'audit the books');
    const body = request!.body as { messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> };
    expect(JSON.stringify(body.messages)).toContain('Audit ACME-7 (thorough). [read_url]');
    expect((body.tools ?? []).map((tool) => tool.function.name)).toEqual(['read_url']);

    // The active version (3, v1's definition, after the rollback) is what a run without @version gets.
    const active = await runCli(['run', '--no-tui', '--json', '--model', MODEL, '--agent', 'bookkeeper', '--param', 'account=ACME-8', 'audit the books'], world.env);
    const activeRun = JSON.parse(active.stdout) as { run_id: string };
    expect((JSON.parse((await runCli(['runs', 'show', activeRun.run_id, '--json'], world.env)).stdout) as { agent: unknown }).agent).toEqual({ slug: 'bookkeeper', version: 3 });
  }, 90_000);

  it('diffs versions, exports YAML that imports back, refuses credentials, and asks for a missing parameter before any model call', async () => {
    const diff = await runCli(['agent', 'diff', 'bookkeeper', '1', '2'], world.env);
    expect(diff.stdout).toContain('tools.http_request');
    const exported = await runCli(['agent', 'export', 'bookkeeper'], world.env);
    expect(exported.stdout).toContain('slug: bookkeeper');
    await writeFile(file('exported.yaml'), exported.stdout);
    const reimported = await runCli(['agent', 'import', file('exported.yaml')], world.env);
    // The export of the active version (the latest, v3) is v3 itself: importing it changes nothing, and says so.
    expect(reimported.code).toBe(2);
    expect(reimported.stderr).toContain('nothing to save');

    const secret = await runCli(['agent', 'create', '--file', file('secret.yaml'), '--json'], world.env);
    expect(secret.code).toBe(2);
    expect(secret.stdout).toContain('AgentSecretValueError');
    expect(secret.stdout).not.toContain('sk-proj-4f9aX2b7Qm1Lz8Rt0Vw3Yk6Ns5Pd');

    const before = world.mock.getRequests().length;
    const missing = await runCli(['run', '--no-tui', '--model', MODEL, '--agent', 'bookkeeper@2', 'audit the books'], world.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('account');
    // Worded for the command line, not for a chat: it names --param, never "Reply with …".
    expect(missing.stderr).toContain('--param account=value');
    expect(missing.stderr).not.toContain('Reply with');
    expect(world.mock.getRequests().length).toBe(before);
    const conflict = await runCli(['run', '--no-tui', '--agent', 'bookkeeper', '--tools', 'read_url', 'x'], world.env);
    expect(conflict.code).toBe(2);
  }, 90_000);

  it('forge init installs the three starter agents once', async () => {
    const first = await runCli(['init', '--yes', '--json'], world.env);
    expect(JSON.parse(first.stdout)).toMatchObject({ agents: ['researcher', 'release-notes', 'toolsmith'] });
    const again = await runCli(['init', '--yes', '--json'], world.env);
    expect(JSON.parse(again.stdout)).toMatchObject({ agents: [] });
    const listed = await runCli(['agent', 'list'], world.env);
    expect(listed.stdout).toMatch(/researcher[\s\S]*toolsmith/);
  }, 60_000);
});
