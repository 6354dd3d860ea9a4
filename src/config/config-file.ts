import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigFileError } from './config-file-error.js';
import { CONFIG_FILE_VERSION, CONFIG_KEYS, configFileSchema, type ConfigFile, type ConfigKey } from './config-settings.js';

/** The file's name, in the Forge home and in a project folder. */
export const CONFIG_FILE_NAME = 'forge.config.json';

function describeCause(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  return error instanceof Error ? error.message : String(error);
}

/**
 * The validated contents of one `forge.config.json`, or undefined when there is none. A file that is
 * not JSON, not an object, has an unknown key or a value of the wrong kind is a `ConfigFileError`
 * naming the file and the key; a `home` key is refused in the home's own file, where it cannot apply.
 */
export function readConfigFile(file: string, options: { inHome?: boolean } = {}): ConfigFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No file there (its folder missing, or a file where the folder would be): nothing configured.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigFileError(file, undefined, `cannot be read (${describeCause(error)}).`, `Make ${file} readable, or remove it.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigFileError(file, undefined, `is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const parsed = configFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      throw new ConfigFileError(file, issue.keys[0], `is not a setting.`, `Remove it from ${file}. Settings: ${CONFIG_KEYS.join(', ')}.`);
    }
    const key = issue.path[0];
    return key === undefined ? fail(file, `must be a JSON object of settings.`) : fail(file, `${issue.message}.`, String(key));
  }
  const contents = parsed.data as ConfigFile;
  if (options.inHome === true && contents.home !== undefined) {
    throw new ConfigFileError(file, 'home', 'cannot be set in the Forge home\'s own file.', `Remove it from ${file}; set FORGE_HOME, or "home" in a project's ${CONFIG_FILE_NAME}.`);
  }
  return contents;
}

function fail(file: string, message: string, key?: string): never {
  throw new ConfigFileError(file, key, message);
}

/**
 * Writes `contents` (validated first, so a file Forge writes always loads) with the current version,
 * readable by its owner only since it may hold keys; written to a temporary file and renamed, so a
 * reader never sees half of it.
 */
export function writeConfigFile(file: string, contents: ConfigFile): void {
  const document = { version: CONFIG_FILE_VERSION, ...Object.fromEntries(Object.entries(contents).filter(([key]) => key !== 'version')) };
  const parsed = configFileSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(file, `${issue.message}.`, String(issue.path[0] ?? ''));
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** `contents` with `key` set to `value` (or removed when `value` is undefined). */
export function withSetting(contents: ConfigFile, key: ConfigKey, value: ConfigFile[ConfigKey]): ConfigFile {
  const next: Record<string, unknown> = { ...contents };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next as ConfigFile;
}
