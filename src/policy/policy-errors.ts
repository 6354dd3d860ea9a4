import { ForgeError } from '../core/index.js';

/** A policy, rule or scope that does not validate: each issue names where and what. */
export class PolicyInvalidError extends ForgeError {
  readonly issues: readonly string[];

  constructor(what: string, issues: readonly string[], hint = 'See `forge policy --help` for the rule format, or `forge policy show --json` for a valid document to start from.') {
    super({ name: 'PolicyInvalidError', message: `${what} is not valid: ${issues.join('; ')}`, hint });
    this.issues = issues;
  }
}

/** Someone saved the scope's policy between this change's read and its write; nothing was saved. */
export class PolicyConflictError extends ForgeError {
  constructor(scope: string, expected: number) {
    super({ name: 'PolicyConflictError', message: `The policy of ${scope} changed while this change was made (it is no longer v${expected}); nothing was saved.`, hint: 'Look at `forge policy show` and make the change again.' });
  }
}
