import { LineCounter, Parser, type CST } from 'yaml';
import type { AgentDefinitionIssue } from './agent-errors.js';

/**
 * The most keys one mapping of an agent file may hold. A definition's widest mapping (its tools) has a
 * few dozen; the YAML library's duplicate-key check is quadratic in a mapping's keys, so a file of tens
 * of thousands of keys would hold the event loop for seconds.
 */
export const MAX_YAML_KEYS_PER_MAPPING = 1_000;

/** The most nodes (keys, values and sequence items) one agent file may hold; a real one holds a few hundred. */
export const MAX_YAML_NODES = 20_000;

/** The deepest nesting of collections an agent file may have (a definition nests four or five deep). */
export const MAX_YAML_DEPTH = 64;

/** The message of a file nested past `MAX_YAML_DEPTH` (or past what the parser's stack holds). */
export const NESTS_TOO_DEEPLY = 'nests too deeply';

type Collection = CST.BlockMap | CST.BlockSequence | CST.FlowCollection;

function isCollection(token: CST.Token | undefined): token is Collection {
  return token?.type === 'block-map' || token?.type === 'block-seq' || token?.type === 'flow-collection';
}

function isMapping(collection: Collection): boolean {
  return collection.type === 'block-map' || (collection.type === 'flow-collection' && collection.start.source === '{');
}

/**
 * Whether the text's shape is within the caps, judged on the concrete syntax tree alone (the lexer and
 * parser are linear; nothing is composed, so no duplicate-key check runs): the first problem as an
 * issue with its line, or undefined. The walk is iterative, so depth never exhausts the stack here.
 */
export function yamlShapeProblem(text: string): AgentDefinitionIssue | undefined {
  const lineCounter = new LineCounter();
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  let nodes = 0;
  for (const token of new Parser(lineCounter.addNewLine).parse(text)) {
    if (token.type !== 'document' || !isCollection(token.value)) continue;
    const pending: { collection: Collection; depth: number }[] = [{ collection: token.value, depth: 1 }];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { collection, depth } = next;
      if (depth > MAX_YAML_DEPTH) return { path: '(file)', message: NESTS_TOO_DEEPLY, ...at(collection.offset) };
      if (isMapping(collection) && collection.items.length > MAX_YAML_KEYS_PER_MAPPING) {
        return { path: '(file)', message: `a mapping holds more than ${MAX_YAML_KEYS_PER_MAPPING} keys, more than an agent file ever needs, so the file was not read`, ...at(collection.offset) };
      }
      for (const item of collection.items) {
        for (const part of [item.key, item.value]) {
          if (part === undefined || part === null) continue;
          nodes += 1;
          if (isCollection(part)) pending.push({ collection: part, depth: depth + 1 });
        }
      }
      if (nodes > MAX_YAML_NODES) return { path: '(file)', message: `holds more than ${MAX_YAML_NODES} YAML nodes, more than an agent file ever needs, so it was not read` };
    }
  }
  return undefined;
}
