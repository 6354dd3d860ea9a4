/** Default cap on the sessions one MCP endpoint keeps at once. */
export const DEFAULT_MAX_SESSIONS = 100;

/** Default time without requests after which an MCP session is ended. */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
