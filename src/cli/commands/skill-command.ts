import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ConfigurationError, describeError } from '../../core/index.js';
import type { ReplayModeOption } from '../../skills/index.js';
import { EXIT, errorLines, exitCodeForRun, parsePositiveInteger } from '../command-errors.js';
import { formatQuantity } from '../event-line/index.js';
import { printError, printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';
import { confirmOnTerminal } from '../confirm.js';

function print(json: boolean, value: unknown, text: () => string): void {
  if (json) printJson(value);
  else printOut(text());
}

/** The modules behind the skill commands, loaded on use so `forge --help` and other commands start fast. */
async function skillModules() {
  const [runtime, skills, view, text] = await Promise.all([import('../../compose/index.js'), import('../../skills/index.js'), import('../run-view.js'), import('../skill-view.js')]);
  return { ...runtime, ...skills, ...view, ...text };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function writeConstantsNote(constants: readonly { name: string; value: unknown }[], skill: string): string {
  if (constants.length === 0) return '';
  return `\nnote: ${constants.length} write argument${constants.length === 1 ? ' is a constant' : 's are constants'} from the recording (${constants.map((constant) => `${constant.name} = ${JSON.stringify(constant.value)}`).join(', ')}); a replay refuses before that write until you pin ${constants.length === 1 ? 'it' : 'them'}: forge skill edit ${skill} ${constants.map((constant) => `--constant ${constant.name}`).join(' ')}\n`;
}

export function registerSkillCommand(program: Command): void {
  const skill = program
    .command('skill')
    .description('Save a successful run as a skill and replay it with zero (or almost zero) model calls; writes are made only with proven values.')
    .addHelpText(
      'after',
      `
Lifecycle:
  $ forge run "Find the latest release of lumen, choose the official documentation and summarize what changed."
  $ forge skill save <run-id> --name latest-release-notes
  $ forge skill run latest-release-notes --input topic=tessera --json
  $ forge run --skills "Find the latest release of kestrel, choose the official documentation and summarize what changed."

Skills are named by name, id, or name@<version> (forge skill versions <name> lists them).
Names are kebab-case; a run already saved, or a name taken, is refused unless --force (a new version).
  $ forge skill rename latest-release-notes release-notes
  $ forge skill remove release-notes`,
    );

  skill
    .command('save')
    .description('Abstract a finished run into a skill: request values become {{variables}}, values from earlier results stay bound to them, write values nothing explains become inputs.')
    .argument('<run-id>', 'the run to save: its id (in `forge run --json`, `forge runs list`) or a unique prefix')
    .option('--name <name>', 'kebab-case name (default: derived from the task)')
    .option('--description <text>', 'what the skill does')
    .option('--constant <steps[i].path...>', 'pin these arguments as constants (they never change; a write may then send them)')
    .option('--into <skill>', 'add the run as another recording of this skill (same tools in the same order) instead of saving a new one')
    .option('--force', 'save even though the run is already saved or the name is taken: the run becomes the next version of the skill of that name')
    .option('--json', 'print the saved skill')
    .addHelpText('after', '\nRefused, with nothing stored: a name that is not kebab-case (latest-release-notes), a run already saved as a skill, a name another skill has (unless --force).')
    .action(async (runId: string, options: { name?: string; description?: string; constant?: string[]; into?: string; force?: boolean; json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const modules = await skillModules();
        const saved = await runtime.skills.saveFromRun(runId, {
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(options.description === undefined ? {} : { description: options.description }),
          ...(options.constant === undefined ? {} : { constants: options.constant }),
          ...(options.into === undefined ? {} : { into: options.into }),
          ...(options.force === true ? { force: true } : {}),
        });
        const { document } = saved;
        print(options.json === true, { ...document, skill_version: saved.version, write_constants: saved.write_constants }, () =>
          `${options.into === undefined ? 'saved' : 'added the recording to'} skill ${document.name}@${saved.version}\n\n${modules.skillText(document, { status: 'active', staleReason: null, version: saved.version, currentVersion: saved.version, dependent: modules.dependentValueNames(document), writeConstants: saved.write_constants })}${writeConstantsNote(saved.write_constants, document.name)}`,
        );
        return EXIT.ok;
      });
    });

  skill
    .command('list')
    .description('List stored skills with their status and current version; a stored skill that no longer reads is listed with why (problem).')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const entries = await runtime.skills.list();
        const rows = entries.map(({ record, problem }) => ({ id: record.id, name: record.name, version: record.currentVersion, status: record.status, stale_reason: record.staleReason, problem, description: record.description, updated_at: record.updatedAt }));
        print(options.json === true, { skills: rows }, () =>
          rows.length === 0
            ? 'No skills yet. Save one from a run: forge skill save <run-id>\n'
            : rows
                .map((row) =>
                  row.problem === null
                    ? `${row.name}@${row.version}  ${row.status}${row.stale_reason === null ? '' : ` (${row.stale_reason})`}  ${row.description}\n`
                    : `${row.name}@${row.version}  broken: ${row.problem}\n    see it: forge skill show ${row.name} --raw · remove it: forge skill remove ${row.name}\n`,
                )
                .join(''),
        );
        return EXIT.ok;
      });
    });

  skill
    .command('show')
    .description('Show a skill: its inputs, choices, steps, where each argument comes from, what it writes, and the recordings it was generalised from.')
    .argument('<skill>', 'name, id or name@<version>')
    .option('--json', 'print the whole skill document')
    .option('--product', 'only what a customer of the packaged skill sees (no steps, no recording)')
    .option('--raw', 'print the stored document exactly as stored, without reading it (works for a skill that no longer reads)')
    .action(async (name: string, options: { json?: boolean; product?: boolean; raw?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        if (options.raw === true) {
          printJson((await runtime.skills.raw(name)).document);
          return EXIT.ok;
        }
        const modules = await skillModules();
        const { record, document } = await runtime.skills.load(name);
        if (options.product === true) {
          print(true, modules.skillProductView(document), () => '');
          return EXIT.ok;
        }
        const writeConstants = runtime.skills.writeConstants(document);
        print(options.json === true, { ...document, status: record.status, stale_reason: record.staleReason, skill_version: record.version, current_version: record.currentVersion, write_constants: writeConstants }, () =>
          modules.skillText(document, { status: record.status, staleReason: record.staleReason, version: record.version, currentVersion: record.currentVersion, dependent: modules.dependentValueNames(document), writeConstants }),
        );
        return EXIT.ok;
      });
    });

  skill
    .command('remove')
    .description('Delete skills with all their versions (a skill that no longer reads, too). Runs they were saved from are kept.')
    .argument('<skill...>', 'names or ids; nothing is removed unless every one is found')
    .option('-y, --yes', 'do not ask (on a terminal it asks before deleting; scripts and --json never ask)')
    .option('--json', 'print JSON')
    .action(async (names: string[], options: { json?: boolean; yes?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const versions = (count: number) => `${count} version${count === 1 ? '' : 's'}`;
        let declined = false;
        const removed = await runtime.skills.remove(names, {
          confirm: async (skills) => {
            declined = !(await confirmOnTerminal(`Delete ${skills.map((entry) => `skill ${entry.name} (${versions(entry.versions)})`).join(', ')}? This cannot be undone.`, options.yes === true || options.json === true));
            return !declined;
          },
        });
        if (declined) {
          printError('forge: nothing removed.\n');
          return EXIT.failed;
        }
        print(options.json === true, { removed: removed.map((entry) => ({ id: entry.id, name: entry.name, versions: entry.versions })) }, () =>
          removed.map((entry) => `removed skill ${entry.name} (${versions(entry.versions)})\n`).join(''),
        );
        return EXIT.ok;
      });
    });

  skill
    .command('rename')
    .description('Give a skill a new kebab-case name; its id, versions and status stay (the renamed document is its next version).')
    .argument('<skill>', 'name or id')
    .argument('<new-name>', 'kebab-case, not taken by another skill')
    .option('--json', 'print JSON')
    .action(async (name: string, newName: string, options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const { record, previousName } = await runtime.skills.rename(name, newName);
        print(options.json === true, { id: record.id, name: record.name, previous_name: previousName, version: record.currentVersion }, () => `renamed skill ${previousName} to ${record.name}@${record.currentVersion}\n`);
        return EXIT.ok;
      });
    });

  skill
    .command('run')
    .description('Replay a skill: deterministic when every value is known, guided (cheapest resolution first) otherwise; a write runs only with values proven for this replay.')
    .argument('<skill>', 'name, id or name@<version>')
    .option('-i, --input <name=value>', 'an input (repeat for each; a list as name=a,b); step values such as steps[1].url may be given too', collect, [])
    .option('--mode <mode>', 'auto | deterministic | guided', 'auto')
    .option('--dry-run', 'resolve every value and run the reads, but make no write: show what each write would send and why')
    .option('--task <text>', 'the request in your words, shown to the rescue model when a choice needs one')
    .option('--summarize', 'end with one model call (counted in llm_calls): it writes the answer in the recorded answer\'s form when the answer template has values this replay cannot bind, else summarizes the fresh results')
    .option('-m, --model <slug>', 'model for --summarize and for the rescue when FORGE_RESCUE_MODEL is unset')
    .option('--json', 'print the replay report (mode, llm_calls, tokens, steps with strategies, writes, refusal)')
    .option('--no-tui', 'print a plain line per event instead of the live view')
    .addHelpText('after', '\nExit codes: 0 completed, 1 failed, 3 refused (a write could not be proven; nothing was written by that step), 2 bad usage.')
    .action(async (name: string, options: { input: string[]; mode: string; dryRun?: boolean; task?: string; summarize?: boolean; model?: string; json?: boolean; tui: boolean }) => {
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
            ...(options.dryRun === true ? { dryRun: true } : {}),
            ...(options.task === undefined ? {} : { request: options.task }),
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
            for (const resolution of step.resolutions) printError(`  step ${step.index} ${step.tool}: ${resolution.name} ← ${resolution.strategy}${resolution.proven ? '' : ' (not proven)'} ${JSON.stringify(resolution.value)}  (${resolution.because})\n`);
          }
          for (const write of result.writes) printError(`  ${write.made ? (write.ok === true ? 'wrote' : 'write failed') : 'would write'}: step ${write.step} ${write.tool} ${JSON.stringify(write.arguments)}\n`);
          if (result.error !== null) printError(errorLines(result.error));
          printError(`${result.mode} replay${result.dry_run ? ' (dry run)' : ''} · ${result.status} · ${formatQuantity(result.llm_calls, 'model call')} · ${result.tokens.input} in / ${result.tokens.output} out tokens · log ${result.log_file}\n`);
        }
        return exitCodeForRun(result.status);
      });
    });

  skill
    .command('test')
    .description('Re-run a skill on each of its recordings against the recorded tool outputs, offline: checks its bindings, its writes and its tool schemas.')
    .argument('<skill>', 'name, id or name@<version>')
    .option('--json', 'print the report')
    .action(async (name: string, options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const report = await runtime.skills.test(name);
        print(options.json === true, report, () =>
          [
            ...report.recordings.flatMap((recording) => [
              ...(report.recordings.length === 1 ? [] : [`recording ${recording.run_id}: ${recording.passed ? 'passed' : 'failed'}\n`]),
              ...recording.steps.map((step) => `${step.matches ? 'ok  ' : 'FAIL'} step ${step.index} ${step.tool}  ${step.strategies.join(', ')}\n`),
            ]),
            ...report.problems.map((problem) => `  ${problem}\n`),
            report.passed ? `${report.skill}: passed\n` : `${report.skill}: failed\n`,
          ].join(''),
        );
        return report.passed ? EXIT.ok : EXIT.failed;
      });
    });

  skill
    .command('edit')
    .description('Change a skill as a new version: pin arguments as constants (they never change, so a write may send them).')
    .argument('<skill>', 'name, id or name@<version> (the version edited)')
    .requiredOption('--constant <steps[i].path...>', 'arguments to pin, e.g. steps[2].subject (see `forge skill show`)')
    .option('--json', 'print the new version')
    .action(async (name: string, options: { constant: string[]; json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const saved = await runtime.skills.edit(name, { constants: options.constant });
        print(options.json === true, { ...saved.document, skill_version: saved.version, write_constants: saved.write_constants }, () => `pinned ${options.constant.join(', ')}: skill ${saved.document.name}@${saved.version}\n${writeConstantsNote(saved.write_constants, saved.document.name)}`);
        return EXIT.ok;
      });
    });

  skill
    .command('versions')
    .description('List a skill\'s versions with their lineage (what made each one).')
    .argument('<skill>', 'name or id')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const modules = await skillModules();
        const { record, versions } = await runtime.skills.versions(name);
        print(options.json === true, { skill: record.name, current_version: record.currentVersion, versions: versions.map((version) => ({ version: version.version, note: version.note, parent_version: version.parentVersion, created_at: version.createdAt })) }, () => modules.versionsText(record.name, versions, record.currentVersion));
        return EXIT.ok;
      });
    });

  skill
    .command('rollback')
    .description('Make an older version current again (as a new version whose lineage points at it; nothing is deleted).')
    .argument('<skill>', 'name or id')
    .argument('<version>', 'the version to go back to', parsePositiveInteger('<version>'))
    .option('--json', 'print the new version')
    .action(async (name: string, version: number, options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const saved = await runtime.skills.rollback(name, version);
        print(options.json === true, { ...saved.document, skill_version: saved.version, write_constants: saved.write_constants }, () => `rolled ${saved.document.name} back to version ${version}: now ${saved.document.name}@${saved.version}\n`);
        return EXIT.ok;
      });
    });

  skill
    .command('export')
    .description('Write a skill document to a file (or stdout), to move it to another Forge.')
    .argument('<skill>', 'name, id or name@<version>')
    .argument('[file]', 'where to write it (default: stdout)')
    .action(async (name: string, file: string | undefined) => {
      await withRuntime(false, async (runtime) => {
        const { document } = await runtime.skills.load(name);
        if (file === undefined) printJson(document);
        else {
          // A skill document carries its recording (real tool results): private, like the store it came from.
          await writeFile(file, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
          printError(`exported ${document.name} to ${file}\n`);
        }
        return EXIT.ok;
      });
    });

  skill
    .command('import')
    .description('Store a skill document from a file (older format versions are upgraded; malformed ones are refused) and list the constants it would write.')
    .argument('<file>', 'a file written by `forge skill export`')
    .option('--json', 'print the stored document')
    .action(async (file: string, options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (error) {
          throw new ConfigurationError(file, `cannot be read: ${describeError(error).message}`, 'Pass the path of a file written by `forge skill export`.');
        }
        let value: unknown;
        try {
          value = JSON.parse(text) as unknown;
        } catch (error) {
          throw new ConfigurationError(file, `is not a JSON skill document (${error instanceof Error ? error.message : String(error)}).`, 'Pass a file written by `forge skill export`, unchanged.');
        }
        const saved = await runtime.skills.import(value);
        print(options.json === true, { ...saved.document, skill_version: saved.version, write_constants: saved.write_constants }, () => `imported skill ${saved.document.name}@${saved.version}\n${writeConstantsNote(saved.write_constants, saved.document.name)}`);
        return EXIT.ok;
      });
    });
}
