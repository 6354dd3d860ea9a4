import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/built-cli.js';
import { startTmuxTerminals, type TmuxTerminals } from './support/tmux-terminal.js';

/** A minimal readable skill document: one GET of a fixed page. */
function skillDocument(name: string): object {
  return {
    format: 'forge-skill',
    version: 1,
    id: `${name.replace(/-/g, '').slice(0, 8).padEnd(8, '0')}0001`,
    name,
    description: 'Fetches a fixed page.',
    task_template: 'Fetch the page',
    variables_schema: { type: 'object', properties: {}, required: [], additionalProperties: false },
    steps: [{ tool: 'http_request', arguments: [{ path: 'method', binding: { kind: 'constant', value: 'GET' } }, { path: 'url', binding: { kind: 'constant', value: 'https://example.org/' } }] }],
    tools: [],
    provenance: { run_id: 'r', model: 'm', task: 'Fetch the page', recorded_at: '2026-01-01T00:00:00.000Z' },
    output_contract: { steps: [{ type: 'object', keys: [] }], final_non_empty: true },
    recording: { inputs: {}, steps: [] },
  };
}

/**
 * `forge skill remove` deletes every version of a skill: on a terminal it asks first (Enter or "n" keeps
 * the skill), `--yes` skips the question, and without a terminal (scripts, CI) it does not ask.
 */
describe('forge skill remove on a terminal', () => {
  let terminals: TmuxTerminals;
  let env: Record<string, string>;

  const skillNames = async () => (JSON.parse((await runCli(['skill', 'list', '--json'], env)).stdout) as { skills: { name: string }[] }).skills.map((skill) => skill.name).sort();

  beforeAll(async () => {
    terminals = startTmuxTerminals('skill-remove');
    env = { FORGE_HOME: path.join(terminals.folder, 'home'), HOME: terminals.folder };
    for (const name of ['kept-page', 'asked-page', 'scripted-page']) {
      const file = path.join(terminals.folder, `${name}.json`);
      writeFileSync(file, JSON.stringify(skillDocument(name)));
      const imported = await runCli(['skill', 'import', file], env);
      expect(imported.code, imported.stderr).toBe(0);
    }
  }, 120_000);

  afterAll(() => {
    terminals.close();
  });

  it('asks before deleting; "n" keeps the skill, "y" deletes it; a script is not asked', async () => {
    const declined = terminals.start(['skill', 'remove', 'kept-page'], { env });
    await declined.waitForScreen((screen) => screen.includes('Delete skill kept-page (1 version)? This cannot be undone. [y/N]'), 'the question');
    declined.keys('n', 'Enter');
    expect(await declined.waitForExit()).toBe(1);
    expect(declined.screen()).toContain('nothing removed');
    terminals.stop(declined);
    expect(await skillNames()).toContain('kept-page');

    const confirmed = terminals.start(['skill', 'remove', 'asked-page'], { env });
    await confirmed.waitForScreen((screen) => screen.includes('[y/N]'), 'the question');
    confirmed.keys('y', 'Enter');
    expect(await confirmed.waitForExit()).toBe(0);
    expect(confirmed.screen()).toContain('removed skill asked-page (1 version)');
    terminals.stop(confirmed);

    const skipped = terminals.start(['skill', 'remove', 'kept-page', '--yes'], { env });
    expect(await skipped.waitForExit()).toBe(0);
    expect(skipped.screen()).not.toContain('[y/N]');
    terminals.stop(skipped);

    const scripted = await runCli(['skill', 'remove', 'scripted-page'], env);
    expect(scripted.code, scripted.stderr).toBe(0);
    expect(await skillNames()).toEqual([]);
  }, 120_000);
});
