import path from 'node:path';
import { CONFIG_FILE_NAME, readConfigFile } from './config-file.js';
import { CONFIG_KEYS, environmentText, settingOf, type ConfigFile, type ConfigKey } from './config-settings.js';
import { resolveForgeHome, type Environment, type ForgeHome } from './forge-home.js';

/** Where a setting's value comes from, strongest first. */
export type SettingSource = 'environment' | 'project-file' | 'home-file' | 'default';

export interface SettingEntry {
  readonly key: ConfigKey;
  readonly variable: string;
  /** As the environment carries it; undefined when the default applies. */
  readonly value: string | undefined;
  readonly source: SettingSource;
  /** The file the value was read from, for the file sources. */
  readonly file?: string;
}

export interface LayeredSettings {
  readonly home: ForgeHome;
  readonly projectFile: string;
  /** Whether the project file exists (a setting may be written to it either way). */
  readonly projectFileExists: boolean;
  readonly homeFile: string;
  readonly homeFileExists: boolean;
  /** The environment with every file setting the environment does not set filled in, FORGE_HOME resolved. */
  readonly env: Environment;
  readonly entries: readonly SettingEntry[];
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

/**
 * Forge's settings from their layers: the environment (a variable set to a non-empty value wins), the
 * project's `./forge.config.json`, the home's `forge.config.json`, then the defaults. Reads the two files
 * and nothing else; a bad file is a `ConfigFileError` naming it and the key.
 */
export function resolveLayeredSettings(env: Environment, cwd: string): LayeredSettings {
  const projectFile = path.resolve(cwd, CONFIG_FILE_NAME);
  const projectContents = readConfigFile(projectFile);
  const project: ConfigFile = projectContents ?? {};
  const home = resolveForgeHome(env, cwd, typeof project.home === 'string' ? project.home : undefined, projectFile);
  const homeFile = path.join(home.path, CONFIG_FILE_NAME);
  const homeRead = homeFile === projectFile ? projectContents : readConfigFile(homeFile, { inHome: true });
  const homeContents: ConfigFile = homeFile === projectFile ? {} : (homeRead ?? {});
  const merged: Record<string, string | undefined> = { ...env, FORGE_HOME: home.path };
  const entries = CONFIG_KEYS.map((key): SettingEntry => {
    const { variable } = settingOf(key);
    if (key === 'home') {
      const source = home.source === 'environment' ? 'environment' : home.source === 'project-file' ? 'project-file' : 'default';
      return { key, variable, value: source === 'default' ? undefined : home.path, source, ...(source === 'project-file' ? { file: projectFile } : {}) };
    }
    if (present(env[variable])) return { key, variable, value: env[variable], source: 'environment' };
    const projectValue = project[key];
    const homeValue = homeContents[key];
    const [value, source, file] =
      projectValue !== undefined ? [environmentText(projectValue), 'project-file' as const, projectFile] : homeValue !== undefined ? [environmentText(homeValue), 'home-file' as const, homeFile] : [undefined, 'default' as const, undefined];
    if (value !== undefined) merged[variable] = value;
    return { key, variable, value, source, ...(file === undefined ? {} : { file }) };
  });
  return { home, projectFile, projectFileExists: projectContents !== undefined, homeFile, homeFileExists: homeRead !== undefined, env: merged, entries };
}
