import { ForgeError } from '../core/index.js';

/** One problem with an agent definition: where (`parameters[1].default`, `tools.shell`) and what, with its line in a YAML file when known. */
export interface AgentDefinitionIssue {
  readonly path: string;
  /** The same path as keys and indexes (`['parameters', 1, 'default']`), for a tool that locates it. */
  readonly segments?: readonly (string | number)[];
  readonly message: string;
  /** 1-based, in the YAML text the definition was read from. */
  readonly line?: number;
  readonly column?: number;
}

function describeIssue(issue: AgentDefinitionIssue): string {
  const where = issue.line === undefined ? issue.path : `${issue.path} (line ${issue.line}${issue.column === undefined ? '' : `, column ${issue.column}`})`;
  return `${where}: ${issue.message}`;
}

/** A definition that does not validate, or a YAML file that is not one: every issue names where and what. Nothing was saved. */
export class AgentDefinitionError extends ForgeError {
  readonly issues: readonly AgentDefinitionIssue[];

  constructor(issues: readonly AgentDefinitionIssue[], hint = 'Fix the named fields and try again; docs/agent-definitions.md shows the format with an example.') {
    super({ name: 'AgentDefinitionError', message: `The agent definition is not valid: ${issues.map(describeIssue).join('; ')}`, hint });
    this.issues = issues;
  }
}

/**
 * Values that look like credentials (a provider key, a token, a URL with a password) in an agent file.
 * The error names where they are and never repeats them.
 */
export class AgentSecretValueError extends ForgeError {
  readonly issues: readonly AgentDefinitionIssue[];

  constructor(issues: readonly AgentDefinitionIssue[]) {
    super({
      name: 'AgentSecretValueError',
      message: `The agent file holds values that look like credentials, so it was refused: ${issues.map(describeIssue).join('; ')}`,
      hint: 'Agent definitions never carry secrets: remove the value and keep keys in the environment or with `forge config set <vendor>_api_key`.',
    });
    this.issues = issues;
  }
}

/** Which template of a definition: the system prompt, or a preamble or postamble of one context. */
export type AgentTemplatePart = 'system_prompt' | `preamble.${string}` | `postamble.${string}`;

/** A template that does not parse, references what does not exist, or fails (or exceeds its limits) while rendering. */
export class AgentTemplateError extends ForgeError {
  readonly part: AgentTemplatePart;
  /** 1-based line and column inside the template, when the template engine knows them. */
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** What is wrong, without the position. */
  readonly reason: string;

  constructor(part: AgentTemplatePart, reason: string, position?: { line: number; column: number }) {
    const where = position === undefined ? part : `${part} line ${position.line}, column ${position.column}`;
    super({
      name: 'AgentTemplateError',
      message: `Template error in ${where}: ${reason}`,
      hint: 'Templates are Liquid: {{ params.name }}, {% if %}, {% for %} and filters. They can use params.*, output.*, agent.* and system.* (tools, skills, agents, time, date, context, output_format); they cannot include files.',
    });
    this.part = part;
    this.line = position?.line;
    this.column = position?.column;
    this.reason = reason;
  }

  /** The location as one phrase, for a definition issue (`line 3, column 7: …`). */
  get located(): string {
    return this.line === undefined ? this.reason : `line ${this.line}, column ${this.column}: ${this.reason}`;
  }
}

/** Parameter values that do not fit the agent's parameters: missing required ones, unknown names, wrong types. */
export class AgentParameterError extends ForgeError {
  /** Required parameters that have no value and no default, in definition order: what to ask the user for. */
  readonly missing: readonly string[];
  readonly issues: readonly string[];

  constructor(agent: string, issues: readonly string[], missing: readonly string[]) {
    super({
      name: 'AgentParameterError',
      message: `Parameters of agent "${agent}" are not valid: ${issues.join('; ')}`,
      hint: `Give every required parameter a value of its type (e.g. --param ${missing[0] ?? 'name'}=value); \`forge agent show ${agent}\` lists them.`,
    });
    this.missing = missing;
    this.issues = issues;
  }
}
