import { LineCounter, isMap, isScalar, isSeq, parseDocument, stringify, visit, type Document, type Node, type YAMLError } from 'yaml';
import { parseAgentDefinition, type AgentDefinition } from './agent-definition.js';
import { AgentDefinitionError, AgentSecretValueError, type AgentDefinitionIssue } from './agent-errors.js';
import { formatAgentPath } from './agent-path.js';
import { findSecretLikeValues, redactSecretLikeValues } from './secret-like-values.js';
import { NESTS_TOO_DEEPLY, yamlShapeProblem } from './yaml-shape-limits.js';

/** The largest agent file read, in bytes. */
export const MAX_AGENT_FILE_BYTES = 256 * 1024;

/** The most aliases (`*name`) one file may expand; more is how a billion-laughs file starts. */
export const MAX_YAML_ALIASES = 100;

const HEADER = '# A Forge agent definition. Import it with `forge agent import <file>`; docs/agent-definitions.md describes every field.\n';

const yamlSyntaxHint = 'Fix the YAML at the line named (plain YAML 1.2: no tags, unique keys, one document), or export the agent again.';

/**
 * A definition as YAML for version control and sharing: the same fields as the schema, in its order,
 * defaults written out, multi-line templates as literal blocks. Anything that looks like a credential
 * (see `findSecretLikeValues`) is written as `[redacted]`: a definition has no secret fields, so such a
 * value is a mistake, and it never leaves in a file (a redacted tool name then no longer validates, and
 * the file fails its import instead of carrying the secret).
 */
export function exportAgentYaml(definition: AgentDefinition): string {
  const safe = redactSecretLikeValues(parseAgentDefinition(definition));
  return HEADER + stringify(safe, { blockQuote: 'literal', lineWidth: 0, aliasDuplicateObjects: false });
}

/** Where `segments` lead in the file: the key of the deepest map entry (or the sequence item) that exists on the way; nothing when not even the first does. */
function positionOf(document: Document, lineCounter: LineCounter, segments: readonly (string | number)[]): { line?: number; column?: number } {
  let node: unknown = document.contents;
  let offset: number | undefined;
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) break;
      offset = (item as Node).range?.[0] ?? offset;
      node = item;
    } else break;
  }
  if (offset === undefined) return {};
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function located(document: Document, lineCounter: LineCounter, issue: AgentDefinitionIssue): AgentDefinitionIssue {
  return issue.segments === undefined ? issue : { ...issue, ...positionOf(document, lineCounter, issue.segments) };
}

function yamlProblemMessage(problem: YAMLError): string {
  if (problem.code === 'MULTIPLE_DOCS') return 'holds more than one YAML document; an agent file holds one';
  const message = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return /Maximum call stack/.test(message) ? NESTS_TOO_DEEPLY : message;
}

/** Runs a walk of the document; a file nested deeply enough to exhaust the stack is refused as such. */
function withinStack<Result>(walk: () => Result): Result {
  try {
    return walk();
  } catch (error) {
    if (error instanceof RangeError && /call stack/.test(error.message)) throw new AgentDefinitionError([{ path: '(file)', message: NESTS_TOO_DEEPLY }], yamlSyntaxHint);
    throw error;
  }
}

function readDocument(text: string, lineCounter: LineCounter): Document {
  if (Buffer.byteLength(text, 'utf8') > MAX_AGENT_FILE_BYTES) {
    throw new AgentDefinitionError([{ path: '(file)', message: `is ${Buffer.byteLength(text, 'utf8')} bytes, more than the ${MAX_AGENT_FILE_BYTES} an agent file may have` }]);
  }
  // Counted on the syntax tree before anything is composed: composing checks duplicate keys in quadratic time.
  const shape = yamlShapeProblem(text);
  if (shape !== undefined) throw new AgentDefinitionError([shape], yamlSyntaxHint);
  const document = parseDocument(text, { lineCounter, version: '1.2', schema: 'core', merge: false, uniqueKeys: true, strict: true, prettyErrors: true });
  // An unknown tag is reported below, with every other tag.
  const problems: AgentDefinitionIssue[] = [...document.errors, ...document.warnings.filter((warning) => warning.code !== 'TAG_RESOLVE_FAILED')].map((problem) => ({
    path: '(file)',
    message: yamlProblemMessage(problem),
    ...(problem.linePos === undefined ? {} : { line: problem.linePos[0].line, column: problem.linePos[0].col }),
  }));
  // Nesting deep enough to exhaust the parser's stack fails at every level: once is enough to say so.
  const tooDeep = problems.find((problem) => problem.message === NESTS_TOO_DEEPLY);
  if (tooDeep !== undefined) throw new AgentDefinitionError([tooDeep], yamlSyntaxHint);
  if (problems.length > 0) throw new AgentDefinitionError(problems, yamlSyntaxHint);
  withinStack(() =>
    visit(document, {
      Node(_key, node) {
        if (node.tag === undefined) return;
        const { line, col } = lineCounter.linePos(node.range?.[0] ?? 0);
        problems.push({ path: '(file)', message: `the tag ${node.tag.replace('tag:yaml.org,2002:', '!!')} is not allowed: agent files are plain YAML`, line, column: col });
      },
    }),
  );
  if (problems.length > 0) throw new AgentDefinitionError(problems, yamlSyntaxHint);
  return document;
}

/**
 * Reads an agent definition from YAML, validated by the same schema as every definition. Safe on
 * untrusted files: at most `MAX_AGENT_FILE_BYTES`, one plain YAML 1.2 document (no tags, no merge
 * keys, unique keys), at most `MAX_YAML_ALIASES` aliases expanded, and at most `MAX_YAML_KEYS_PER_MAPPING`
 * keys in a mapping, `MAX_YAML_NODES` nodes and `MAX_YAML_DEPTH` levels, counted before the document is
 * built (its duplicate-key check is quadratic). Throws `AgentDefinitionError` for
 * YAML and schema problems, and `AgentSecretValueError` when any string looks like a credential;
 * both name the path and the line.
 */
export function importAgentYaml(text: string): AgentDefinition {
  const lineCounter = new LineCounter();
  const document = readDocument(text, lineCounter);
  let value: unknown;
  try {
    value = withinStack(() => document.toJS({ maxAliasCount: MAX_YAML_ALIASES }));
  } catch (error) {
    // The yaml package's refusal of excessive aliases; anything else is not a property of the file.
    if (!(error instanceof ReferenceError)) throw error;
    throw new AgentDefinitionError([{ path: '(file)', message: `expands more than ${MAX_YAML_ALIASES} aliases, so it was not read` }], yamlSyntaxHint);
  }
  const secrets = findSecretLikeValues(value);
  if (secrets.length > 0) {
    // A key can be the secret itself: the path names it redacted, the line is found from the real one.
    throw new AgentSecretValueError(
      secrets.map((secret) => {
        const segments = redactSecretLikeValues(secret.segments);
        return { path: formatAgentPath(segments), segments, message: `looks like ${secret.kind}`, ...positionOf(document, lineCounter, secret.segments) };
      }),
    );
  }
  try {
    return parseAgentDefinition(value);
  } catch (error) {
    if (!(error instanceof AgentDefinitionError)) throw error;
    throw new AgentDefinitionError(
      error.issues.map((issue) => located(document, lineCounter, issue)),
      error.hint,
    );
  }
}
