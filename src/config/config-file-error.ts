import { ConfigurationError } from '../core/index.js';

/** A `forge.config.json` that cannot be used: names the file and, when one is at fault, the key. */
export class ConfigFileError extends ConfigurationError {
  readonly file: string;
  readonly key: string | undefined;
  constructor(file: string, key: string | undefined, message: string, hint?: string) {
    super(key === undefined ? file : `${file}: "${key}"`, message, hint ?? `Fix or remove it in ${file} (forge config list shows every key and where its value comes from).`);
    this.name = 'ConfigFileError';
    this.file = file;
    this.key = key;
  }
}
