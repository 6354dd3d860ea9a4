const marker = Symbol.for('forge.error');

/**
 * Base of every error Forge raises on purpose. Each subclass has a stable `name` (its code) and typed
 * fields that explain what went wrong and how to fix it. `ForgeError.isInstance` works across duplicated
 * copies of this package because it checks a global symbol, not the prototype chain.
 */
export class ForgeError extends Error {
  readonly [marker] = true;
  /** A hint for the user: what to change so the operation succeeds. */
  readonly hint: string | undefined;

  constructor(options: { name: string; message: string; hint?: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = options.name;
    this.hint = options.hint;
  }

  static isInstance(error: unknown): error is ForgeError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /** Plain data for events, JSON output and API responses; never carries secrets or stacks. */
  toJSON(): { name: string; message: string; hint?: string } {
    return this.hint === undefined ? { name: this.name, message: this.message } : { name: this.name, message: this.message, hint: this.hint };
  }
}

export class ToolNotFoundError extends ForgeError {
  readonly toolName: string;
  readonly availableTools: string[];
  constructor(toolName: string, availableTools: string[]) {
    super({
      name: 'ToolNotFoundError',
      message: `No tool named "${toolName}". Available tools: ${availableTools.join(', ') || '(none)'}.`,
      hint: 'Call one of the available tools by its exact name.',
    });
    this.toolName = toolName;
    this.availableTools = availableTools;
  }
}

/** A run's tool list names tools that are not in the catalog. Raised before the run makes any model call. */
export class UnknownToolsError extends ForgeError {
  /** The names asked for that no tool has, in the order given. */
  readonly toolNames: string[];
  readonly availableTools: string[];
  constructor(toolNames: string[], availableTools: string[]) {
    super({
      name: 'UnknownToolsError',
      message: `No tool named ${toolNames.map((name) => `"${name}"`).join(', ')}. Available tools: ${availableTools.join(', ') || '(none)'}.`,
      hint: 'Name tools exactly as `forge tools list` shows them, separated by commas (--tools web_search,read_url).',
    });
    this.toolNames = toolNames;
    this.availableTools = availableTools;
  }
}

export class ToolInputError extends ForgeError {
  readonly toolName: string;
  /** One line per problem: the path of the bad field and what is wrong with it. */
  readonly issues: string[];
  constructor(toolName: string, issues: string[]) {
    super({
      name: 'ToolInputError',
      message: `Invalid input for tool "${toolName}": ${issues.join('; ')}`,
      hint: 'Fix the named fields so they match the tool\'s input schema and call it again.',
    });
    this.toolName = toolName;
    this.issues = issues;
  }
}

export class ToolExecutionError extends ForgeError {
  readonly toolName: string;
  constructor(toolName: string, message: string, cause?: unknown) {
    super({ name: 'ToolExecutionError', message: `Tool "${toolName}" failed: ${message}`, cause });
    this.toolName = toolName;
  }
}

/** A tool ran longer than its timeout: its call's signal was aborted and the call failed. */
export class ToolTimeoutError extends ForgeError {
  readonly toolName: string;
  readonly timeoutMs: number;
  constructor(toolName: string, timeoutMs: number) {
    super({
      name: 'ToolTimeoutError',
      message: `Tool "${toolName}" did not finish within ${formatSeconds(timeoutMs)}; the call was stopped.`,
      hint: `Try a smaller request or another tool. To give it longer, set FORGE_TOOL_TIMEOUTS=${toolName}=<seconds> (or FORGE_TOOL_TIMEOUT for every tool).`,
    });
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A tool failed `failures` times in a row in one run and is blocked for the rest of it: the call was
 * refused without running. `lastError` is the message of the last failure (shortened).
 */
export class ToolFailureBlockedError extends ForgeError {
  readonly toolName: string;
  readonly failures: number;
  readonly lastError: string;
  constructor(toolName: string, failures: number, lastError: string) {
    super({
      name: 'ToolFailureBlockedError',
      message: `${toolName} failed ${failures} times in a row (last error: ${lastError}); it is blocked for the rest of this run.`,
      hint: 'Try another tool or another approach, or finish with what you have.',
    });
    this.toolName = toolName;
    this.failures = failures;
    this.lastError = lastError;
  }
}

/** A run called a tool (`scope` tool) or tools at all (`scope` run) more often in the last minute than its limit allows; the call was refused, not delayed. */
export class ToolRateLimitError extends ForgeError {
  readonly toolName: string;
  readonly scope: 'tool' | 'run';
  readonly limit: number;
  /** Milliseconds until one more call fits in the limit. */
  readonly retryAfterMs: number;
  constructor(toolName: string, scope: 'tool' | 'run', limit: number, retryAfterMs: number) {
    const what = scope === 'tool' ? `${toolName} was called ${limit} times in the last minute in this run, its limit (FORGE_TOOL_RATE_LIMIT)` : `this run made ${limit} tool calls in the last minute, its limit (FORGE_RUN_TOOL_RATE_LIMIT)`;
    super({
      name: 'ToolRateLimitError',
      message: `Call to ${toolName} refused: ${what}.`,
      hint: `Wait about ${formatSeconds(retryAfterMs)} before calling ${scope === 'tool' ? 'it' : 'tools'} again, make fewer calls, or finish with what you have.`,
    });
    this.toolName = toolName;
    this.scope = scope;
    this.limit = limit;
    this.retryAfterMs = retryAfterMs;
  }
}

/** `1 s`, `90 s`, `0.5 s`: a duration as the errors above say it. */
function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${seconds >= 1 ? Math.ceil(seconds) : Number(seconds.toFixed(3))} s`;
}

export class ToolDefinitionError extends ForgeError {
  readonly toolName: string;
  constructor(toolName: string, message: string) {
    super({ name: 'ToolDefinitionError', message: `Tool "${toolName}" cannot be registered: ${message}` });
    this.toolName = toolName;
  }
}

export class PolicyBlockedError extends ForgeError {
  readonly toolName: string;
  readonly reason: string;
  constructor(toolName: string, reason: string) {
    super({ name: 'PolicyBlockedError', message: `Policy blocked tool "${toolName}": ${reason}` });
    this.toolName = toolName;
    this.reason = reason;
  }
}

export class ApprovalDeniedError extends ForgeError {
  readonly toolName: string;
  constructor(toolName: string, reason: string) {
    super({ name: 'ApprovalDeniedError', message: `Tool "${toolName}" needs approval and was not approved: ${reason}` });
    this.toolName = toolName;
  }
}

export class NetworkBlockedError extends ForgeError {
  readonly url: string;
  readonly reason: string;
  /** `hint` replaces the generic advice when the guard knows better (e.g. the exact host:port to allow). */
  constructor(url: string, reason: string, hint?: string) {
    super({
      name: 'NetworkBlockedError',
      message: `Request to ${url} refused: ${reason}`,
      hint:
        hint ??
        'Forge blocks private, loopback, link-local and metadata addresses. To reach a self-hosted service on purpose, list its host:port in FORGE_ALLOW_HOSTS.',
    });
    this.url = url;
    this.reason = reason;
  }
}

export class NetworkError extends ForgeError {
  readonly url: string;
  constructor(url: string, message: string, cause?: unknown, hint?: string) {
    super({ name: 'NetworkError', message: `Request to ${url} failed: ${message}`, cause, ...(hint === undefined ? {} : { hint }) });
    this.url = url;
  }
}

export class ModelNotConfiguredError extends ForgeError {
  constructor(message: string, hint: string) {
    super({ name: 'ModelNotConfiguredError', message, hint });
  }
}

export class ModelCallError extends ForgeError {
  readonly model: string;
  readonly statusCode: number | undefined;
  constructor(model: string, message: string, statusCode?: number, cause?: unknown, hint?: string) {
    super({ name: 'ModelCallError', message: `Model ${model} failed: ${message}`, cause, ...(hint === undefined ? {} : { hint }) });
    this.model = model;
    this.statusCode = statusCode;
  }
}

export class RunCancelledError extends ForgeError {
  readonly reason: string;
  constructor(reason: string) {
    super({ name: 'RunCancelledError', message: `Run cancelled: ${reason}` });
    this.reason = reason;
  }
}

export class ConfigurationError extends ForgeError {
  readonly variable: string;
  constructor(variable: string, message: string, hint?: string) {
    super({ name: 'ConfigurationError', message: `${variable}: ${message}`, ...(hint === undefined ? {} : { hint }) });
    this.variable = variable;
  }
}

export class NotFoundError extends ForgeError {
  readonly kind: string;
  readonly id: string;
  /** `by` is what `id` is to the user ("name", "name or id", "slug"); an id unless said. */
  constructor(kind: string, id: string, hint?: string, by = 'id') {
    super({ name: 'NotFoundError', message: `No ${kind} with ${by} "${id}".`, ...(hint === undefined ? {} : { hint }) });
    this.kind = kind;
    this.id = id;
  }
}

export class RunLogError extends ForgeError {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, message: string) {
    super({ name: 'RunLogError', message: `${file}:${line}: ${message}` });
    this.file = file;
    this.line = line;
  }
}

/** A job was enqueued on a queue that has been closed: nothing will ever take it, so it is refused. */
export class JobQueueClosedError extends ForgeError {
  readonly kind: string;
  constructor(kind: string) {
    super({ name: 'JobQueueClosedError', message: `The job queue is closed; the ${kind} job was not enqueued.`, hint: 'Enqueue jobs before closing the queue, or open a new one.' });
    this.kind = kind;
  }
}
