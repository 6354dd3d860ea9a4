/** A JSON value read out of a model's reply, or why none could be. */
export type JsonInText = { readonly found: true; readonly value: unknown } | { readonly found: false; readonly problem: string };

/** How many `{` a reply may start failed candidates at before the search gives up: keeps a reply full of braces linear. */
const MAX_OBJECT_CANDIDATES = 20;

const WHOLE_FENCE = /^```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```$/i;
const JSON_FENCE = /```[ \t]*(json)?[ \t]*\r?\n([\s\S]*?)```/gi;

function parsed(text: string): JsonInText {
  try {
    return { found: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { found: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The reply as one JSON value: its whole text (trimmed), or its whole text being a single fenced
 * block (```json or ```). Anything else around the value and it is not found.
 */
export function wholeTextJson(text: string): JsonInText {
  const trimmed = text.trim();
  const whole = parsed(trimmed);
  if (whole.found) return whole;
  const fence = WHOLE_FENCE.exec(trimmed);
  if (fence !== null) return parsed(fence[1]!);
  return { found: false, problem: 'the reply is not JSON alone' };
}

/** Where the object that opens at `start` closes (just after its `}`), counting braces outside strings; undefined when it never does. */
function objectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return undefined;
}

function firstObject(text: string): JsonInText {
  let firstProblem: string | undefined;
  let start = text.indexOf('{');
  for (let attempt = 0; start !== -1 && attempt < MAX_OBJECT_CANDIDATES; attempt += 1) {
    const end = objectEnd(text, start);
    const candidate = end === undefined ? undefined : parsed(text.slice(start, end));
    if (candidate?.found === true) return candidate;
    firstProblem ??= candidate === undefined ? `the { at character ${start + 1} is never closed` : `the {…} at character ${start + 1} is not valid JSON (${candidate.problem})`;
    start = text.indexOf('{', start + 1);
  }
  return {
    found: false,
    problem: `the reply holds no JSON object${firstProblem === undefined ? '' : `: ${firstProblem}`}; reply with one JSON object, alone or in a \`\`\`json block`,
  };
}

/**
 * The JSON a model's reply carries, read the way models write it: the whole reply (or the whole
 * reply as one fenced block); else the first ```json (or untagged) fenced block, whose JSON must
 * parse; else the first `{…}` in the text that parses as JSON, with prose around it. The search is
 * bounded (`MAX_OBJECT_CANDIDATES`), so a long reply full of braces costs linear time.
 */
export function jsonInText(text: string): JsonInText {
  const whole = wholeTextJson(text);
  if (whole.found) return whole;
  for (const fence of text.matchAll(JSON_FENCE)) {
    const inFence = parsed(fence[2]!.trim());
    if (inFence.found) return inFence;
    if (fence[1] !== undefined) return { found: false, problem: `the \`\`\`json block is not valid JSON (${inFence.problem})` };
  }
  return firstObject(text);
}
