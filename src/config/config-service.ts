import path from 'node:path';
import { ConfigurationError } from '../core/index.js';
import { CONFIG_FILE_NAME, readConfigFile, withSetting, writeConfigFile } from './config-file.js';
import { CONFIG_KEYS, fileValueFromText, isConfigKey, settingOf, type ConfigFile, type ConfigKey } from './config-settings.js';
import type { Environment } from './forge-home.js';
import { resolveLayeredSettings, type LayeredSettings, type SettingEntry } from './layered-settings.js';

/** Which file `forge config set` and `forge init` write: the home's (default) or the project's. */
export type ConfigTarget = 'home' | 'project';

/** What `forge config` shows of a setting: its value masked when secret. */
export interface ShownSetting extends SettingEntry {
  readonly default: string;
  readonly description: string;
  readonly secret: boolean;
}

const MASK = '********';

/** `value` as it may be printed: a secret fully masked, a URL's password masked. */
export function maskedValue(key: ConfigKey, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if ('secret' in settingOf(key)) return MASK;
  try {
    const url = new URL(value);
    if (url.password !== '') {
      url.password = MASK;
      return url.href;
    }
  } catch {
    // Not a URL: nothing in it to mask.
  }
  return value;
}

export function parseConfigKey(key: string): ConfigKey {
  if (!isConfigKey(key)) throw new ConfigurationError(key, 'is not a setting.', `Settings: ${CONFIG_KEYS.join(', ')} (forge config list shows them all).`);
  return key;
}

function shown(entry: SettingEntry): ShownSetting {
  const setting = settingOf(entry.key);
  return { ...entry, value: maskedValue(entry.key, entry.value), default: setting.default, description: setting.description, secret: 'secret' in setting };
}

/** Every setting with its effective value (secrets masked) and where it comes from. */
export function listSettings(env: Environment, cwd: string): { settings: LayeredSettings; shown: ShownSetting[] } {
  const settings = resolveLayeredSettings(env, cwd);
  return { settings, shown: settings.entries.map(shown) };
}

export function getSetting(env: Environment, cwd: string, key: string): ShownSetting {
  const parsed = parseConfigKey(key);
  return shown(resolveLayeredSettings(env, cwd).entries.find((entry) => entry.key === parsed)!);
}

/** The file `target` names for this environment and folder. */
export function configFileFor(env: Environment, cwd: string, target: ConfigTarget): string {
  return target === 'project' ? path.resolve(cwd, CONFIG_FILE_NAME) : resolveLayeredSettings(env, cwd).homeFile;
}

/**
 * Sets keys in the target file, keeping its other keys; every value is validated before the file is
 * written, and the error names the file and the key. Returns the file written.
 */
export function setSettings(env: Environment, cwd: string, target: ConfigTarget, values: ReadonlyArray<readonly [string, string]>): string {
  const file = configFileFor(env, cwd, target);
  let contents: ConfigFile = readConfigFile(file, { inHome: target === 'home' }) ?? {};
  for (const [key, text] of values) {
    const parsed = parseConfigKey(key);
    if (parsed === 'home' && target === 'home') throw new ConfigurationError('home', 'cannot be set in the Forge home\'s own file.', 'Set FORGE_HOME, or use --project to set it in ./forge.config.json.');
    contents = withSetting(contents, parsed, fileValueFromText(parsed, text));
  }
  writeConfigFile(file, contents);
  return file;
}

/** Removes a key from the target file. Returns the file written. */
export function unsetSetting(env: Environment, cwd: string, target: ConfigTarget, key: string): string {
  const file = configFileFor(env, cwd, target);
  const contents = readConfigFile(file, { inHome: target === 'home' }) ?? {};
  writeConfigFile(file, withSetting(contents, parseConfigKey(key), undefined));
  return file;
}
