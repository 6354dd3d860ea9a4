import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from './support/built-cli.js';

const definition = (slug: string) => `version: 1\nname: Agent ${slug}\nslug: ${slug}\ntools:\n  read_url: allowed\nsystem_prompt: "Look into it."\n`;

/**
 * Several `forge` processes writing one home at the same moment, as a script or a person with two
 * terminals does: each one creates or opens the same SQLite file, migrates it and writes. A lock another
 * process holds is a wait, not a failure ("The database … is locked by another process").
 */
describe('forge commands writing one home at once', () => {
  let folder: string;
  let env: Record<string, string>;
  const file = (slug: string) => path.join(folder, `${slug}.yaml`);
  const slugs = Array.from({ length: 6 }, (_, index) => `agent-${index + 1}`);

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'forge-writers-'));
    env = { FORGE_HOME: path.join(folder, 'home') };
    await Promise.all(slugs.map((slug) => writeFile(file(slug), definition(slug))));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  // Six processes at once on a loaded 2-core machine take their time: each is given as long as the test.
  const forge = (args: readonly string[]) => runCli([...args, '--json'], env, { timeoutMs: 110_000 });
  const failures = (results: readonly CliResult[]) => results.filter((result) => result.code !== 0).map((result) => `exit ${result.code ?? result.signal}: ${result.stdout}${result.stderr}`);

  it('creates the home once and every command succeeds: six creating an agent each at once on a new home', async () => {
    expect(failures(await Promise.all(slugs.map((slug) => forge(['agent', 'create', '--file', file(slug)]))))).toEqual([]);

    const listed = await forge(['agent', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    const { agents } = JSON.parse(listed.stdout) as { agents: { slug: string }[] };
    expect(agents.map((agent) => agent.slug).sort()).toEqual([...slugs].sort());
  }, 240_000);
});
