import type { Command } from 'commander';
import type { ConfigTarget, ShownSetting } from '../../config/index.js';
import type * as configModule from '../../config/index.js';
import { reportError } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';

function sourceText(setting: ShownSetting): string {
  if (setting.source === 'default') return `default (${setting.default})`;
  if (setting.source === 'environment') return `environment ${setting.variable}`;
  return `${setting.source === 'project-file' ? 'project file' : 'home file'} ${setting.file ?? ''}`;
}

function asJson(setting: ShownSetting) {
  return { key: setting.key, variable: setting.variable, value: setting.value ?? null, source: setting.source, file: setting.file ?? null, default: setting.default, secret: setting.secret };
}

function targetOf(options: { project?: boolean }): ConfigTarget {
  return options.project === true ? 'project' : 'home';
}

type ConfigModule = typeof configModule;

/** Runs one config action, reporting its error the usual way. */
async function guarded(json: boolean, action: (config: ConfigModule) => void): Promise<void> {
  try {
    action(await import('../../config/index.js'));
  } catch (error) {
    process.exitCode = reportError(error, json);
  }
}

export function registerConfigCommand(program: Command): void {
  const config = program
    .command('config')
    .description('Settings from forge.config.json (the home\'s and the project\'s) and the environment: list, get, set, unset')
    .addHelpText(
      'after',
      `
Precedence: environment > ./forge.config.json (the project) > <home>/forge.config.json > defaults.
Keys mirror the environment variables (model = FORGE_MODEL, allow_hosts = FORGE_ALLOW_HOSTS, …);
\`forge config list\` shows them all. Secrets (keys, tokens) are always printed masked.`,
    );

  config
    .command('list')
    .description('every setting, its value (secrets masked) and where it comes from')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      await guarded(json, ({ listSettings }) => {
        const { settings, shown } = listSettings(process.env, process.cwd());
        if (json) {
          printJson({ home: settings.home, project_file: settings.projectFile, project_file_exists: settings.projectFileExists, home_file: settings.homeFile, home_file_exists: settings.homeFileExists, settings: shown.map(asJson) });
          return;
        }
        const width = Math.max(...shown.map((setting) => setting.key.length));
        const lines = shown.map((setting) => `${setting.key.padEnd(width)}  ${setting.value ?? '-'}    [${sourceText(setting)}]`);
        const fileLine = (file: string, role: string, exists: boolean) => `${file} (${role}${exists ? '' : ', not there yet'})`;
        printOut(`home: ${settings.home.path} (${settings.home.reason})\nfiles: ${fileLine(settings.projectFile, 'project', settings.projectFileExists)}, ${fileLine(settings.homeFile, 'home', settings.homeFileExists)}\n\n${lines.join('\n')}\n`);
      });
    });

  config
    .command('get')
    .description('one setting\'s value (masked when secret)')
    .argument('<key>', 'a setting, e.g. model')
    .option('--json', 'print JSON')
    .action(async (key: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await guarded(json, ({ getSetting }) => {
        const setting = getSetting(process.env, process.cwd(), key);
        if (json) printJson(asJson(setting));
        else printOut(`${setting.value ?? ''}\n`);
      });
    });

  config
    .command('set')
    .description('write a setting into the home\'s forge.config.json (or the project\'s with --project)')
    .argument('<key>', 'a setting, e.g. model')
    .argument('<value>', 'its value; lists as a,b; switches as true|false')
    .option('--project', 'write ./forge.config.json instead of the home\'s file')
    .option('--json', 'print JSON')
    .action(async (key: string, value: string, options: { project?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await guarded(json, ({ setSettings, maskedValue, parseConfigKey }) => {
        const file = setSettings(process.env, process.cwd(), targetOf(options), [[key, value]]);
        const shown = maskedValue(parseConfigKey(key), value);
        if (json) printJson({ key, value: shown ?? null, file });
        else printOut(`${key} = ${shown ?? ''}  (in ${file})\n`);
      });
    });

  config
    .command('unset')
    .description('remove a setting from the home\'s forge.config.json (or the project\'s with --project)')
    .argument('<key>', 'a setting')
    .option('--project', 'edit ./forge.config.json instead of the home\'s file')
    .option('--json', 'print JSON')
    .action(async (key: string, options: { project?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await guarded(json, ({ unsetSetting }) => {
        const file = unsetSetting(process.env, process.cwd(), targetOf(options), key);
        if (json) printJson({ key, file });
        else printOut(`${key} removed from ${file}\n`);
      });
    });
}
