/**
 * Models often get a tool's name slightly wrong: a vendor prefix (`functions.web_search`), camelCase
 * (`webSearch`), hyphens (`read-url`) or a common synonym. These are the mistakes we forgive; anything
 * else is an unknown tool.
 */
const SYNONYMS: Readonly<Record<string, string>> = {
  search: 'web_search',
  websearch: 'web_search',
  search_web: 'web_search',
  google: 'web_search',
  browse: 'read_url',
  fetch_url: 'read_url',
  open_url: 'read_url',
  read_page: 'read_url',
  read_webpage: 'read_url',
  fetch_page: 'read_url',
  http: 'http_request',
  request: 'http_request',
  fetch: 'http_request',
};

/** The canonical spelling of a tool name: no vendor prefix, snake_case, lower case. */
export function normalizeToolName(name: string): string {
  return name
    .trim()
    .replace(/^(functions|function|tools|tool)[.:/]/i, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s.\-/]+/g, '_');
}

/** Candidate registry names for a possibly misspelt name, most likely first. */
export function aliasCandidates(name: string): string[] {
  const normalized = normalizeToolName(name);
  // Own entries only: a model's `constructor` or `toString` must not find Object.prototype's members.
  const synonym = Object.hasOwn(SYNONYMS, normalized) ? SYNONYMS[normalized] : undefined;
  return synonym === undefined ? [normalized] : [normalized, synonym];
}
