/** Plain data: what crosses the sandbox boundary in either direction, and nothing else. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
