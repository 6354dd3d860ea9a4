import { ForgeError } from '../../core/index.js';

/** A toolbox manifest (an import, or the file an older Forge kept the toolbox in) cannot be read; nothing is taken from it. */
export class ToolboxManifestError extends ForgeError {
  readonly file: string;
  readonly issues: readonly string[];
  constructor(file: string, issues: readonly string[]) {
    super({
      name: 'ToolboxManifestError',
      message: `The toolbox manifest ${file} cannot be read: ${issues.join('; ')}`,
      hint: 'Fix the file, or move it out of the way; nothing was imported from it.',
    });
    this.file = file;
    this.issues = issues;
  }
}

/**
 * One toolbox entry in the store cannot be read (its row was damaged, or written by something that is
 * not Forge). Only that tool is affected: it is listed as unreadable and never registered, and every
 * other tool and command works; the hint is the recovery, which works on the damaged entry.
 */
export class ToolboxEntryError extends ForgeError {
  readonly toolName: string;
  readonly issues: readonly string[];
  constructor(toolName: string, issues: readonly string[]) {
    super({
      name: 'ToolboxEntryError',
      message: `The toolbox entry "${toolName}" in the store cannot be read: ${issues.join('; ')}`,
      hint: `Remove it with \`forge tools remove ${toolName}\` (or empty the whole toolbox with \`forge run --fresh "<task>"\`), then add the tool again with \`forge tools add\` or \`forge tools import\`.`,
    });
    this.toolName = toolName;
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

/** A tool name another toolbox holds (another account's, or the installation's): nothing was stored under it. */
export class ToolboxNameTakenError extends ForgeError {
  readonly toolName: string;
  constructor(toolName: string) {
    super({
      name: 'ToolboxNameTakenError',
      message: `The tool name "${toolName}" is taken by a toolbox tool this account does not own; nothing was stored under it.`,
      hint: 'Choose another name for the tool.',
    });
    this.toolName = toolName;
  }
}

/** A tool that cannot be promoted into the installation's toolbox as it stands. */
export class ToolPromotionError extends ForgeError {
  readonly toolName: string;
  constructor(toolName: string, why: string, hint: string) {
    super({ name: 'ToolPromotionError', message: `${toolName} cannot be promoted: ${why}.`, hint });
    this.toolName = toolName;
  }
}
