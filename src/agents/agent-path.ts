/** A step into a definition: a field or map key, an array index, or the entry of a named list (`{ item: 'topic' }`). */
export type AgentPathSegment = string | number | { readonly item: string };

/**
 * A path as people read it: `tools.shell`, `model.temperature`, `parameters[1].default` (by index),
 * `parameters[topic].default` (by name), `tools["odd key"]` for keys that are not plain names. The
 * empty path is `(definition)`.
 */
export function formatAgentPath(segments: readonly AgentPathSegment[]): string {
  if (segments.length === 0) return '(definition)';
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'object') text += `[${segment.item}]`;
    else if (/^[A-Za-z0-9_*-]+$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
