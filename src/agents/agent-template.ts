import { Liquid, Tokenizer, TypeGuards, type Template } from 'liquidjs';
import { AgentTemplateError, type AgentTemplatePart } from './agent-errors.js';

/** The longest template (in characters) a definition may hold in one part. */
export const MAX_TEMPLATE_LENGTH = 32_000;

/** The longest text one template may render to. */
export const MAX_RENDERED_LENGTH = 100_000;

/** How deeply blocks (`if`, `for`, `case`, `capture`, …) may nest. */
export const MAX_TEMPLATE_NESTING = 24;

/** How long one render may take, in milliseconds, before it is stopped. */
export const RENDER_TIME_LIMIT_MS = 250;

/** What one render may allocate, in LiquidJS's units (array items, string characters made by filters, range sizes). */
export const RENDER_MEMORY_LIMIT = 1_000_000;

/** Tags that read other templates from files; agent templates are self-contained. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;

const BLOCK_TAGS = new Set(['if', 'unless', 'for', 'case', 'capture', 'tablerow', 'comment', 'raw', 'block']);

/**
 * The one engine every agent template renders with. Sandboxed: templates resolve against an empty
 * in-memory map (never the file system) and the tags that load files fail at parse time; only own
 * properties of the data are visible, so `constructor`, `__proto__` and friends are undefined; an
 * undefined variable or filter is an error, not an empty string; no filter evaluates code; parsing,
 * render time and allocations are bounded. Dates print in UTC, like `system.time`.
 */
const engine = new Liquid({
  templates: {},
  ownPropertyOnly: true,
  strictVariables: true,
  strictFilters: true,
  timezoneOffset: 0,
  parseLimit: MAX_TEMPLATE_LENGTH,
  renderLimit: RENDER_TIME_LIMIT_MS,
  memoryLimit: RENDER_MEMORY_LIMIT,
});
for (const tag of FILE_TAGS) {
  engine.registerTag(tag, {
    parse() {
      throw new Error(`the ${tag} tag is not available: agent templates cannot read files or other templates`);
    },
    render() {
      return '';
    },
  });
}

/** A template that parsed, ready to render as often as needed. */
export interface ParsedTemplate {
  readonly part: AgentTemplatePart;
  readonly templates: Template[];
}

/** A variable a template reads from outside itself: its path up to the first computed segment, and where it stands. */
export interface TemplateVariableReference {
  /** `['params', 'topic']` for `{{ params.topic }}`; `['params']` for `{{ params[name] }}`. */
  readonly path: readonly string[];
  readonly line: number;
  readonly column: number;
}

interface LiquidErrorShape {
  readonly message: string;
  readonly token?: { getPosition(): number[] };
  readonly originalError?: { message: string };
}

function positionOf(token: { getPosition(): number[] } | undefined): { line: number; column: number } | undefined {
  if (token === undefined) return undefined;
  const [line, column] = token.getPosition();
  return line === undefined || column === undefined ? undefined : { line, column };
}

/** LiquidJS's errors end their message with `, line:3, col:7`; the position is reported apart. */
function templateError(part: AgentTemplatePart, error: unknown): AgentTemplateError {
  if (error instanceof AgentTemplateError) return error;
  const shape = error as LiquidErrorShape;
  const message = (shape.originalError?.message ?? shape.message ?? String(error)).replace(/, line:\d+, col:\d+$/, '');
  const reason = /Maximum call stack/.test(message)
    ? 'the template nests too deeply'
    : message === 'parse length limit exceeded'
      ? `the template is longer than ${MAX_TEMPLATE_LENGTH} characters`
      : message === 'template render limit exceeded'
        ? `rendering took longer than ${RENDER_TIME_LIMIT_MS} ms (a loop too large?) and was stopped`
        : message === 'memory alloc limit exceeded'
          ? `rendering needed more than ${RENDER_MEMORY_LIMIT} units of memory (a range or string too large?) and was stopped`
          : message;
  return new AgentTemplateError(part, reason, positionOf(shape.token));
}

/** Refuses templates whose blocks nest deeper than the limit, before the parser recurses into them. */
function assertNesting(part: AgentTemplatePart, source: string): void {
  const tags: { name: string; getPosition(): number[] }[] = [];
  for (const token of new Tokenizer(source, engine.options.operators).readTopLevelTokens(engine.options)) {
    if (!TypeGuards.isTagToken(token)) continue;
    // A {% liquid %} tag holds one tag per line: they nest like the others.
    if (token.name === 'liquid') tags.push(...token.tokenizer.readLiquidTagTokens(engine.options));
    else tags.push(token);
  }
  let depth = 0;
  for (const tag of tags) {
    if (BLOCK_TAGS.has(tag.name)) depth += 1;
    else if (tag.name.startsWith('end')) depth = Math.max(0, depth - 1);
    if (depth > MAX_TEMPLATE_NESTING) throw new AgentTemplateError(part, `blocks nest more than ${MAX_TEMPLATE_NESTING} deep`, positionOf(tag));
  }
}

/** Parses one template; throws `AgentTemplateError` with the line and column of what is wrong. */
export function parseAgentTemplate(part: AgentTemplatePart, source: string): ParsedTemplate {
  if (source.length > MAX_TEMPLATE_LENGTH) throw new AgentTemplateError(part, `the template is ${source.length} characters long, more than the ${MAX_TEMPLATE_LENGTH} allowed`);
  try {
    assertNesting(part, source);
    return { part, templates: engine.parse(source) };
  } catch (error) {
    throw templateError(part, error);
  }
}

/**
 * The variables a template reads that it does not set itself (`assign`, `capture` and loop variables
 * are its own), in the order they appear.
 */
export function templateVariableReferences(template: ParsedTemplate): TemplateVariableReference[] {
  const analysis = engine.analyzeSync(template.templates, { partials: false });
  const references = Object.values(analysis.globals).flatMap((variables) =>
    variables.map((variable) => {
      const path: string[] = [];
      for (const segment of variable.segments) {
        if (typeof segment !== 'string') break;
        path.push(segment);
      }
      return { path, line: variable.location.row, column: variable.location.col };
    }),
  );
  return references.sort((left, right) => left.line - right.line || left.column - right.column);
}

/**
 * Renders a parsed template with `scope` as its variables. Throws `AgentTemplateError` naming the
 * line and column of an undefined variable or filter, and when a limit stops the render (time,
 * allocations, or output longer than `MAX_RENDERED_LENGTH`).
 */
export function renderAgentTemplate(template: ParsedTemplate, scope: Readonly<Record<string, unknown>>): string {
  let text: string;
  try {
    text = String(engine.renderSync(template.templates, scope));
  } catch (error) {
    throw templateError(template.part, error);
  }
  if (text.length > MAX_RENDERED_LENGTH) throw new AgentTemplateError(template.part, `the template renders to ${text.length} characters, more than the ${MAX_RENDERED_LENGTH} allowed`);
  return text;
}
