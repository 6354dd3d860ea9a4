import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ConfigurationError } from '../../core/index.js';
import type { ForgeRuntime } from '../../compose/index.js';
import { EXIT } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

interface JsonOption {
  json?: boolean;
}

const author = () => process.env['USER'] ?? 'cli';

async function agentsOf(runtime: ForgeRuntime) {
  const { agentServiceOf } = await import('../../compose/index.js');
  return agentServiceOf(runtime);
}

async function views() {
  return import('../../agents/index.js');
}

/** A definition file: YAML (or JSON, which is YAML too), `-` for stdin. */
async function readDefinitionFile(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function positiveVersion(value: string): number {
  const version = Number.parseInt(value, 10);
  if (!Number.isInteger(version) || version < 1 || String(version) !== value.trim()) throw new ConfigurationError('version', `"${value}" is not a version number (1, 2, …).`);
  return version;
}

export function registerAgentCommand(program: Command): void {
  const agent = program
    .command('agent')
    .description('Agent definitions: typed, templated, versioned; run one with `forge run --agent <slug>[@version] --param k=v`.')
    .addHelpText(
      'after',
      `
A definition (YAML or JSON, one schema) gives an agent its identity, model, tools (per tool or pattern:
allowed, approval or disabled), typed parameters, outputs, the skills it may replay and a system prompt
template (Liquid: variables, loops, conditionals, filters; no files, no code). Every save is a new
immutable version and becomes the active one; runs record the version they ran; rollback saves an
earlier version's definition again as the newest (history only grows, as for skills and policy). An agent's tool access is its policy scope (agent:<slug>): it never relaxes a block of
the installation's policy.

Examples:
  $ forge agent create --file researcher.yaml
  $ forge agent edit researcher --file researcher.yaml --message "shorter answers"
  $ forge agent diff researcher 1 2
  $ forge agent rollback researcher 1
  $ forge run --agent researcher@2 --param topic=tides "What changed this year?"
  $ forge agent export researcher > researcher.yaml`,
    );

  agent
    .command('create')
    .description('Create an agent from a definition file (YAML or JSON; - for stdin).')
    .requiredOption('--file <file>', 'the definition')
    .option('--message <text>', 'why (kept with version 1)')
    .option('--json', 'print JSON')
    .action(async (options: { file: string; message?: string } & JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { importAgentYaml, agentDetailView } = await views();
        const created = await service.create(importAgentYaml(await readDefinitionFile(options.file)), { author: author(), userId: null, ...(options.message === undefined ? {} : { message: options.message }) });
        if (json) printJson(agentDetailView(created));
        else printOut(`Created agent ${created.agent.slug} (version 1).\n`);
        return EXIT.ok;
      });
    });

  agent
    .command('edit')
    .description("Save a changed definition as the agent's next version (it becomes the active one).")
    .argument('<slug>', 'the agent')
    .requiredOption('--file <file>', 'the whole changed definition (YAML or JSON; - for stdin); `forge agent export <slug>` gives the current one')
    .option('--message <text>', 'why (kept with the version)')
    .option('--json', 'print JSON')
    .action(async (slug: string, options: { file: string; message?: string } & JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { importAgentYaml, agentDetailView, agentChangeView } = await views();
        const edited = await service.edit(slug, importAgentYaml(await readDefinitionFile(options.file)), { author: author(), userId: null, ...(options.message === undefined ? {} : { message: options.message }) });
        if (json) printJson({ ...agentDetailView(edited), changes: edited.changes.map(agentChangeView) });
        else printOut(`Saved ${slug} as version ${edited.version.version}: changed ${edited.version.changedFields.join(', ')}.\n`);
        return EXIT.ok;
      });
    });

  agent
    .command('list')
    .description('List the agents.')
    .option('--json', 'print JSON')
    .action(async (options: JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { agentSummaryView } = await views();
        const agents = await service.list();
        if (json) printJson({ agents: agents.map(agentSummaryView) });
        else printOut(agents.length === 0 ? 'No agents yet: create one with `forge agent create --file agent.yaml`.\n' : `${agents.map((each) => `${each.slug}  ${each.name}  v${each.activeVersion}${each.activeVersion === each.latestVersion ? '' : ` (latest v${each.latestVersion})`}`).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  agent
    .command('show')
    .description('Show an agent (its active version, or slug@version) with its definition.')
    .argument('<agent>', 'slug or slug@version')
    .option('--json', 'print JSON')
    .action(async (reference: string, options: JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { agentDetailView, exportAgentYaml } = await views();
        const shown = await service.show(reference);
        if (json) printJson(agentDetailView(shown));
        else {
          const parameters = shown.definition.parameters.map((parameter) => `${parameter.name} (${parameter.type}${parameter.required ? ', required' : ''}${parameter.default === undefined ? '' : `, default ${String(parameter.default)}`})`);
          printOut(`${shown.agent.slug}@${shown.version.version}  ${shown.agent.name}  (active v${shown.agent.activeVersion}, latest v${shown.agent.latestVersion})\nparameters: ${parameters.join(', ') || 'none'}\n\n${exportAgentYaml(shown.definition)}`);
        }
        return EXIT.ok;
      });
    });

  agent
    .command('versions')
    .description("An agent's versions, newest first, with the fields each changed.")
    .argument('<slug>', 'the agent')
    .option('--json', 'print JSON')
    .action(async (slug: string, options: JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { agentVersionsView } = await views();
        const { agent, versions } = await service.history(slug);
        if (json) printJson(agentVersionsView(agent, versions));
        else printOut(`${versions.map((version) => `v${version.version}${version.version === agent.activeVersion ? ' (active)' : ''}  ${version.createdAt}  ${version.author}  ${version.message}\n    changed: ${version.changedFields.join(', ')}`).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  agent
    .command('diff')
    .description('The fields that differ between two versions of an agent.')
    .argument('<slug>', 'the agent')
    .argument('<from>', 'a version', positiveVersion)
    .argument('<to>', 'another version', positiveVersion)
    .option('--json', 'print JSON')
    .action(async (slug: string, from: number, to: number, options: JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { agentChangeView } = await views();
        const changes = await service.diff(slug, from, to);
        if (json) printJson({ slug, from, to, changes: changes.map(agentChangeView) });
        else printOut(changes.length === 0 ? `v${from} and v${to} of ${slug} are the same.\n` : `${changes.map((change) => `${change.path}\n  - ${JSON.stringify(change.before) ?? '(absent)'}\n  + ${JSON.stringify(change.after) ?? '(absent)'}`).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  agent
    .command('rollback')
    .description("Roll back: save an earlier version's definition again as the newest version; runs started from now on use it.")
    .argument('<slug>', 'the agent')
    .argument('<version>', 'the version', positiveVersion)
    .option('--json', 'print JSON')
    .action(async (slug: string, version: number, options: JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { agentDetailView } = await views();
        const rolled = await service.rollback(slug, version, { author: author(), userId: null });
        if (json) printJson(agentDetailView(rolled));
        else printOut(`${slug} now runs version ${rolled.version.version}${rolled.version.version === version ? '' : ` (the definition of v${version}, saved again)`}.\n`);
        return EXIT.ok;
      });
    });

  agent
    .command('export')
    .description('Write an agent definition as YAML (stdout, or a file) for version control; credential-looking values are redacted.')
    .argument('<agent>', 'slug or slug@version')
    .argument('[file]', 'where to write it; default stdout')
    .action(async (reference: string, file: string | undefined) => {
      await withRuntime(false, async (runtime) => {
        const text = await (await agentsOf(runtime)).exportYaml(reference);
        if (file === undefined) printOut(text);
        else await writeFile(file, text, { mode: 0o644 });
        return EXIT.ok;
      });
    });

  agent
    .command('import')
    .description('Import a YAML definition: a new agent, or the next version of the agent its slug names.')
    .argument('<file>', 'the definition (- for stdin)')
    .option('--message <text>', 'why (kept with the version)')
    .option('--json', 'print JSON')
    .action(async (file: string, options: { message?: string } & JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const service = await agentsOf(runtime);
        const { agentDetailView } = await views();
        const imported = await service.importYaml(await readDefinitionFile(file), { author: author(), userId: null, ...(options.message === undefined ? {} : { message: options.message }) });
        if (json) printJson({ ...agentDetailView(imported), created: imported.created });
        else printOut(`${imported.created ? 'Created' : 'Updated'} agent ${imported.agent.slug} (version ${imported.version.version}).\n`);
        return EXIT.ok;
      });
    });

  agent
    .command('remove')
    .description('Remove an agent and its versions (runs keep the version they ran).')
    .argument('<slug>', 'the agent')
    .option('--json', 'print JSON')
    .action(async (slug: string, options: JsonOption) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        await (await agentsOf(runtime)).remove(slug);
        if (json) printJson({ removed: slug });
        else printOut(`Removed agent ${slug}.\n`);
        return EXIT.ok;
      });
    });
}
