import { ForgeError } from '../../core/index.js';

/** The toolbox manifest on disk cannot be read; nothing is overwritten until it is fixed or wiped. */
export class ToolboxManifestError extends ForgeError {
  readonly file: string;
  readonly issues: readonly string[];
  constructor(file: string, issues: readonly string[]) {
    super({
      name: 'ToolboxManifestError',
      message: `The toolbox manifest ${file} cannot be read: ${issues.join('; ')}`,
      hint: 'Fix or move the file, or start over with `forge run --fresh` (which wipes the toolbox).',
    });
    this.file = file;
    this.issues = issues;
  }
}

/** A tool did not pass the verification gate (its test, or the test of its test). */
export class ToolVerificationError extends ForgeError {
  readonly toolName: string;
  readonly failures: readonly string[];
  constructor(toolName: string, failures: readonly string[]) {
    super({
      name: 'ToolVerificationError',
      message: `Tool "${toolName}" did not pass verification:\n  - ${failures.join('\n  - ')}`,
      hint: 'The test must pass against the tool in the sandbox and fail against every stub (constants, echo, throw).',
    });
    this.toolName = toolName;
    this.failures = failures;
  }
}

/**
 * The store's copy of the toolbox could not be written. The manifest file already holds the change and
 * stays the source of truth; the next `Toolbox.open` rewrites the store's copy from it.
 */
export class ToolboxMirrorError extends ForgeError {
  /** The tool whose change was being mirrored; null when the whole toolbox was (a wipe, or the resync on open). */
  readonly toolName: string | null;
  constructor(toolName: string | null, cause: unknown) {
    super({
      name: 'ToolboxMirrorError',
      message: `The store's copy of the toolbox could not be updated${toolName === null ? '' : ` for tool "${toolName}"`}: ${cause instanceof Error ? cause.message : String(cause)}`,
      hint: 'The manifest file holds the change; the store copy is rewritten from it the next time Forge opens the toolbox. Check that the database (FORGE_DATABASE_URL) is writable.',
      cause,
    });
    this.toolName = toolName;
  }
}
