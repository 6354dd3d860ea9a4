import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ConfigurationError } from '../../core/index.js';
import type { ArgumentBinding, ReplayModeOption, SkillDocument } from '../../skills/index.js';
import { EXIT, errorLines, exitCodeForRun } from '../command-errors.js';
import { printError, printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

function print(json: boolean, value: unknown, text: () => string): void {
  if (json) printJson(value);
  else printOut(text());
}

function describeBinding(binding: ArgumentBinding): string {
  switch (binding.kind) {
    case 'constant':
      return `constant ${JSON.stringify(binding.value)}`;
    case 'variable':
      return `input {{${binding.name}}}`;
    case 'template':
      return `template ${JSON.stringify(binding.template)}`;
    case 'step-result':
      if (binding.prefix !== null || binding.suffix !== null) return `text of step ${binding.step} after ${JSON.stringify(binding.prefix)}`;
      return `step ${binding.step} result ${binding.collection === null ? binding.path : `one of ${binding.collection}`}${binding.key_field === null ? '' : ` where ${binding.key_field.field} = {{${binding.key_field.variable}}}`}${binding.value_kind === 'url' ? ' (URL scoring)' : ''}`;
    case 'text':
      return `text handed on from step ${binding.step}${binding.path === '' ? '' : ` (${binding.path})`}`;
  }
}

function showText(document: SkillDocument, status: string, staleReason: string | null, dependent: readonly string[]): string {
  const variables = Object.entries(document.variables_schema.properties)
    .map(([name, variable]) => `  ${name}  ${variable.type}${document.variables_schema.required.includes(name) ? ', required' : ''}  e.g. ${JSON.stringify(variable.examples[0])}  ${variable.description}`)
    .join('\n');
  const steps = document.steps
    .map((step, index) => `  ${index}. ${step.tool}\n${step.arguments.map(({ path, binding }) => `       ${path} ← ${describeBinding(binding)}`).join('\n')}`)
    .join('\n');
  return `${document.name}  (${status}${staleReason === null ? '' : `: ${staleReason}`})
${document.description}

task template: ${document.task_template}
recorded from run ${document.provenance.run_id} (${document.provenance.model})

inputs:
${variables || '  (none)'}

steps:
${steps}

resolved at replay: ${dependent.join(', ') || '(nothing: replays deterministically)'}
`;
}

/** The modules behind the skill commands, loaded on use so `forge --help` and other commands start fast. */
async function skillModules() {
  const [runtime, skills, view] = await Promise.all([import('../../runtime/index.js'), import('../../skills/index.js'), import('../run-view.js')]);
  return { ...runtime, ...skills, ...view };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function registerSkillCommand(program: Command): void {
  const skill = program
    .command('skill')
    .description('Save a successful run as a skill and replay it with zero (or almost zero) model calls.')
    .addHelpText(
      'after',
      `
Lifecycle:
  $ forge run "Find the latest release of lumen, choose the official documentation and summarize what changed."
  $ forge skill save <run-id> --name latest-release-notes
  $ forge skill run latest-release-notes --input topic=tessera --json
  $ forge run --skills "Find the latest release of kestrel, choose the official documentation and summarize what changed."`,
    );

  skill
    .command('save')
    .description('Abstract a finished run into a skill: user inputs become {{variables}}, values from earlier results stay bound to them.')
    .argument('<run-id>', 'the run to save (its id is in `forge run --json`)')
    .option('--name <name>', 'kebab-case name (default: derived from the task)')
    .option('--description <text>', 'what the skill does')
    .option('--json', 'print the skill document')
    .action(async (runId: string, options: { name?: string; description?: string; json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const modules = await skillModules();
        const document = await modules.saveSkillFromRun(runtime, runId, {
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(options.description === undefined ? {} : { description: options.description }),
        });
        print(options.json === true, document, () => `saved skill ${document.name}\n\n${showText(document, 'active', null, modules.dependentValueNames(document))}`);
        return EXIT.ok;
      });
    });

  skill
    .command('list')
    .description('List stored skills with their status.')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const records = await runtime.store.skills.list();
        const rows = records.map((record) => ({ id: record.id, name: record.name, status: record.status, stale_reason: record.staleReason, description: record.description, updated_at: record.updatedAt }));
        print(options.json === true, { skills: rows }, () =>
          rows.length === 0 ? 'No skills yet. Save one from a run: forge skill save <run-id>\n' : rows.map((row) => `${row.name}  ${row.status}${row.stale_reason === null ? '' : ` (${row.stale_reason})`}  ${row.description}\n`).join(''),
        );
        return EXIT.ok;
      });
    });

  skill
    .command('show')
    .description('Show a skill: its inputs, steps and where each argument comes from.')
    .argument('<skill>', 'name or id')
    .option('--json', 'print the whole skill document')
    .option('--product', 'only what a customer of the packaged skill sees (no steps, no recording)')
    .action(async (name: string, options: { json?: boolean; product?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const modules = await skillModules();
        const { record, document } = await modules.loadSkill(runtime, name);
        if (options.product === true) {
          print(true, modules.skillProductView(document), () => '');
          return EXIT.ok;
        }
        print(options.json === true, { ...document, status: record.status, stale_reason: record.staleReason }, () => showText(document, record.status, record.staleReason, modules.dependentValueNames(document)));
        return EXIT.ok;
      });
    });

  skill
    .command('run')
    .description('Replay a skill: deterministic when every value is known, guided (cheapest resolution first) otherwise.')
    .argument('<skill>', 'name or id')
    .option('-i, --input <name=value>', 'an input (repeat for each); dependent values such as steps[1].url may be given too', collect, [])
    .option('--mode <mode>', 'auto | deterministic | guided', 'auto')
    .option('--summarize', 'end with one model call that summarizes the fresh results (counted in llm_calls)')
    .option('-m, --model <slug>', 'model for --summarize and for the rescue when FORGE_RESCUE_MODEL is unset')
    .option('--json', 'print the replay report (mode, llm_calls, tokens, steps with strategies, candidates and scores)')
    .option('--no-tui', 'print a plain line per event instead of the live view')
    .action(async (name: string, options: { input: string[]; mode: string; summarize?: boolean; model?: string; json?: boolean; tui: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const modules = await skillModules();
        if (!['auto', 'deterministic', 'guided'].includes(options.mode)) throw new ConfigurationError('--mode', `"${options.mode}" is not a mode.`, 'Use auto, deterministic or guided.');
        const view = await modules.attachRunView(runtime.bus, { json, tui: options.tui });
        let result;
        try {
          result = await modules.runSkill(runtime, {
            skill: name,
            inputs: modules.parseInputPairs(options.input),
            mode: options.mode as ReplayModeOption,
            summarize: options.summarize === true,
            ...(options.model === undefined ? {} : { model: options.model }),
          });
        } finally {
          await view.stop();
        }
        if (json) {
          printJson(result);
        } else {
          if (result.answer !== null) printOut(`${result.answer}\n`);
          for (const step of result.steps) {
            for (const resolution of step.resolutions) printError(`  step ${step.index} ${step.tool}: ${resolution.name} ← ${resolution.strategy} ${JSON.stringify(resolution.value)}\n`);
          }
          if (result.error !== null) printError(errorLines(result.error));
          printError(`${result.mode} replay · ${result.llm_calls} model calls · ${result.tokens.input} in / ${result.tokens.output} out tokens · log ${result.log_file}\n`);
        }
        return exitCodeForRun(result.status);
      });
    });

  skill
    .command('test')
    .description('Re-run a skill on its recorded inputs against its recorded tool outputs, offline: checks its bindings and tool schemas.')
    .argument('<skill>', 'name or id')
    .option('--json', 'print the report')
    .action(async (name: string, options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const modules = await skillModules();
        const { document } = await modules.loadSkill(runtime, name);
        const report = await modules.testSkillAgainstRecording(document, runtime.registry, runtime);
        print(options.json === true, report, () =>
          [
            ...report.steps.map((step) => `${step.matches ? 'ok  ' : 'FAIL'} step ${step.index} ${step.tool}  ${step.strategies.join(', ')}\n`),
            ...report.problems.map((problem) => `  ${problem}\n`),
            report.passed ? `${report.skill}: passed\n` : `${report.skill}: failed\n`,
          ].join(''),
        );
        return report.passed ? EXIT.ok : EXIT.failed;
      });
    });

  skill
    .command('export')
    .description('Write a skill document to a file (or stdout), to move it to another Forge.')
    .argument('<skill>', 'name or id')
    .argument('[file]', 'where to write it (default: stdout)')
    .action(async (name: string, file: string | undefined) => {
      await withRuntime(false, async (runtime) => {
        const modules = await skillModules();
        const { document } = await modules.loadSkill(runtime, name);
        if (file === undefined) printJson(document);
        else {
          await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
          printError(`exported ${document.name} to ${file}\n`);
        }
        return EXIT.ok;
      });
    });

  skill
    .command('import')
    .description('Store a skill document from a file (older format versions are upgraded; malformed ones are refused).')
    .argument('<file>', 'a file written by `forge skill export`')
    .option('--json', 'print the stored document')
    .action(async (file: string, options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const modules = await skillModules();
        let value: unknown;
        try {
          value = JSON.parse(await readFile(file, 'utf8')) as unknown;
        } catch (error) {
          throw new ConfigurationError(file, `is not a JSON skill document (${error instanceof Error ? error.message : String(error)}).`);
        }
        const document = await modules.importSkill(runtime, value);
        print(options.json === true, document, () => `imported skill ${document.name}\n`);
        return EXIT.ok;
      });
    });
}
