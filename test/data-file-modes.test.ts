import { spawn } from 'node:child_process';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGE_BIN, type CliResult } from './support/built-cli.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';

/** A stored skill (format version 1) to import and export again; what it does does not matter here. */
const skillDocument = {
  format: 'forge-skill',
  version: 1,
  id: '0a1b2c3d4e5f',
  name: 'top-results',
  description: 'The first results for a topic.',
  task_template: 'Show the top {{limit}} results for {{topic}}',
  variables_schema: {
    type: 'object',
    properties: { topic: { type: 'string', description: 'What to search for.', examples: ['lumen'] }, limit: { type: 'integer', description: 'How many results.', examples: [3] } },
    required: ['topic', 'limit'],
    additionalProperties: false,
  },
  steps: [{ tool: 'web_search', arguments: [{ path: 'query', binding: { kind: 'variable', name: 'topic' } }, { path: 'max_results', binding: { kind: 'variable', name: 'limit' } }] }],
  tools: [{ name: 'web_search', schema_hash: '0000000000000000' }],
  provenance: { run_id: 'run-1', model: 'openai:gpt-4.1-mini', task: 'Show the top 3 results for lumen', recorded_at: '2026-01-01T00:00:00.000Z' },
  output_contract: { steps: [{ type: 'object', keys: ['query', 'results'] }], final_non_empty: true },
  recording: { inputs: { topic: 'lumen', limit: 3 }, steps: [{ tool: 'web_search', input: { query: 'lumen', max_results: 3 }, result: { query: 'lumen', results: [] } }] },
};

/**
 * Runs `forge …` under `umask 022`, the usual default that turns plain file creation into 0644 files
 * and 0755 folders: what Forge keeps private must be private whatever the umask leaves.
 */
function runUnderUmask022(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, FORGE_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

async function modeOf(file: string): Promise<string> {
  return ((await stat(file)).mode & 0o777).toString(8).padStart(3, '0');
}

describe('the files Forge writes are its owner\'s alone', () => {
  let world: EngineWorld;
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    world = await startEngineWorld();
    world.mock.on({ userMessage: 'file modes task' }, { content: 'Nothing to look up.', usage: { prompt_tokens: 20, completion_tokens: 5 } });
    // FORGE_HOME does not exist yet: Forge creates it, and every folder on the way to it.
    home = path.join(world.home, 'fresh', 'forge-home');
    env = { ...world.env, FORGE_HOME: home };
  });
  afterAll(async () => {
    await world?.close();
  });

  it('creates FORGE_HOME, forge.db, runs/, run logs, an exported skill and an exported toolbox without group or other access', async () => {
    const run = await runUnderUmask022(['run', '--json', '--fresh', '--model', 'openai:gpt-4.1-mini', 'file modes task'], env);
    expect(run.code, run.stderr).toBe(0);
    const importFile = path.join(world.home, 'skill-to-import.json');
    await writeFile(importFile, JSON.stringify(skillDocument));
    const imported = await runUnderUmask022(['skill', 'import', importFile], env);
    expect(imported.code, imported.stderr).toBe(0);
    const exportFile = path.join(world.home, 'exported-skill.json');
    const exported = await runUnderUmask022(['skill', 'export', 'top-results', exportFile], env);
    expect(exported.code, exported.stderr).toBe(0);
    const toolboxFile = path.join(world.home, 'exported-toolbox.json');
    const toolboxExported = await runUnderUmask022(['tools', 'export', toolboxFile], env);
    expect(toolboxExported.code, toolboxExported.stderr).toBe(0);

    const logFile = String((JSON.parse(run.stdout) as { log_file: string }).log_file);
    const databaseFiles = (await readdir(home)).filter((name) => name.startsWith('forge.db'));
    const modes = {
      parent: await modeOf(path.dirname(home)),
      home: await modeOf(home),
      runs: await modeOf(path.join(home, 'runs')),
      log: await modeOf(logFile),
      exported: await modeOf(exportFile),
      toolboxExported: await modeOf(toolboxFile),
      ...Object.fromEntries(await Promise.all(databaseFiles.map(async (name) => [name, await modeOf(path.join(home, name))]))),
    };

    expect(databaseFiles).toContain('forge.db');
    expect(path.dirname(logFile)).toBe(path.join(home, 'runs'));
    expect(modes).toEqual({
      parent: '700',
      home: '700',
      runs: '700',
      log: '600',
      exported: '600',
      toolboxExported: '600',
      ...Object.fromEntries(databaseFiles.map((name) => [name, '600'])),
    });
    await rm(exportFile);
    await rm(toolboxFile);
  });
});
