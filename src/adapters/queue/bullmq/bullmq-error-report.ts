/** The codes of a lost connection: `connectRedis` already reports those, once per outage. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/** The same message is written at most once in this long. */
const QUIET_MS = 60_000;

/**
 * Where the errors BullMQ emits (a queue's, a worker's, its event reader's) go: one line on stderr,
 * prefixed with `context`, the same message at most once a minute. Errors of a lost connection are left
 * out: BullMQ repeats them at every reconnect attempt, and the connection's own report says it once.
 */
export function bullmqErrorReport(context: string): (error: unknown) => void {
  const lastWritten = new Map<string, number>();
  return (error) => {
    const code = (error as { code?: unknown } | undefined)?.code;
    const message = error instanceof Error ? error.message : String(error);
    if ((typeof code === 'string' && CONNECTION_CODES.has(code)) || message === 'Connection is closed.') return;
    const now = Date.now();
    if (now - (lastWritten.get(message) ?? -Infinity) < QUIET_MS) return;
    lastWritten.set(message, now);
    process.stderr.write(`forge: ${context}: ${message}\n`);
  };
}
