import { ForgeError } from '../../../core/index.js';

/**
 * The database records schema versions this Forge does not know: a newer Forge wrote it. Forge refuses
 * to open it rather than run an older schema's code against it, and changes nothing in it.
 */
export class SchemaVersionError extends ForgeError {
  /** Versions recorded in the database that this Forge has no migration for, ascending. */
  readonly unknownVersions: readonly number[];
  /** The newest schema version this Forge knows. */
  readonly latestKnownVersion: number;

  constructor(unknownVersions: readonly number[], latestKnownVersion: number) {
    super({
      name: 'SchemaVersionError',
      message:
        `The database is at schema version ${Math.max(...unknownVersions)}, but this Forge only knows versions up to ${latestKnownVersion}: ` +
        'a newer Forge wrote it. Refusing to open it so it is not corrupted.',
      hint: 'Run the Forge version that wrote this database, or set FORGE_DATABASE_URL to a different database.',
    });
    this.unknownVersions = unknownVersions;
    this.latestKnownVersion = latestKnownVersion;
  }
}
