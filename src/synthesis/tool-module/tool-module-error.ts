import { ForgeError } from '../../core/index.js';

/**
 * A tool module that does not meet the contract. `issues` has one line per problem, each naming the
 * field or export at fault, so the author model (or a user of `forge tools add`) can fix them all at once.
 */
export class ToolModuleError extends ForgeError {
  readonly issues: readonly string[];
  constructor(issues: readonly string[]) {
    super({
      name: 'ToolModuleError',
      message: `Not a valid tool module: ${issues.join('; ')}`,
      hint:
        'A tool module exports `meta` ({ name, description, input: a JSON Schema object, capabilities: e.g. ["fetch"] }) ' +
        'and a default `async function run(input, forge)` that returns JSON data.',
    });
    this.issues = issues;
  }
}
