/**
 * What people read of a tool's output. The untrusted-content boundary (see `wrapUntrusted`) is for the
 * model only: every human-facing presenter (CLI, API views, the web UI, library results) shows outputs
 * through `readableOutput`, which takes each boundary tag off and pretty-prints JSON. Imports nothing, so
 * the web UI bundles the same function.
 */

/** An opening boundary tag (current shape with its random suffix, or the older unsuffixed one) and the newline after it. */
const openingTag = /<untrusted-content(?:-[0-9a-f]{12})? source="[^"<>]*">\n?/g;
/** A closing boundary tag and the newline before it. */
const closingTag = /\n?<\/untrusted-content(?:-[0-9a-f]{12})?>/g;

/** How deep JSON held as text inside JSON (an HTTP body) is read out for display and answers. */
const maxJsonTextDepth = 3;

/**
 * `text` without any boundary tag, wherever they sit (a whole wrapped result, an error's wrapped message,
 * a remote tool's wrapped description). Content inside was defanged when it was wrapped, so every tag
 * left in the text is one Forge wrote.
 */
export function withoutBoundaryTags(text: string): string {
  return text.replace(openingTag, '').replace(closingTag, '');
}

/**
 * `value` with every string that holds a JSON object or array (an HTTP response's body, a remote tool's
 * JSON text) replaced by what it parses to, a few levels deep; anything else unchanged.
 */
export function withJsonTextRead(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (depth >= maxJsonTextDepth) return value;
    const parsed = parsedJson(value);
    return parsed === undefined ? value : withJsonTextRead(parsed, depth + 1);
  }
  if (Array.isArray(value)) return value.map((item) => withJsonTextRead(item, depth));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withJsonTextRead(item, depth)]));
  return value;
}

/**
 * A tool output (or an answer made of one) as a person should read it: no boundary tags, and JSON
 * pretty-printed with the JSON held in its strings read out, instead of escaped on one line. Text that
 * is not JSON (a page, an error, JSON cut by the output cap) stays as it is.
 */
export function readableOutput(text: string): string {
  const bare = withoutBoundaryTags(text);
  const parsed = parsedJson(bare);
  return parsed === undefined ? bare : JSON.stringify(withJsonTextRead(parsed), null, 2);
}

function parsedJson(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') && trimmed.endsWith('}')) && !(trimmed.startsWith('[') && trimmed.endsWith(']'))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}
