import { APICallError } from '@ai-sdk/provider';

/** How long to wait before retry `attempt` (from 1): the server's Retry-After when sane, else exponential backoff. */
function retryDelayMs(error: unknown, attempt: number): number {
  const backoff = 500 * 2 ** (attempt - 1);
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  const retryAfterMs = Number.parseFloat(headers?.['retry-after-ms'] ?? '');
  if (Number.isFinite(retryAfterMs) && retryAfterMs >= 0) return Math.min(retryAfterMs, 30_000);
  const retryAfter = Number.parseFloat(headers?.['retry-after'] ?? '');
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter * 1000, 30_000);
  return backoff;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** The error thrown when every attempt failed; `errors` keeps each attempt's error. */
export class RetriesExhaustedError extends Error {
  constructor(
    readonly lastError: unknown,
    readonly errors: readonly unknown[],
  ) {
    super(lastError instanceof Error ? lastError.message : String(lastError));
    this.name = 'RetriesExhaustedError';
  }
}

/**
 * Calls `attempt` and retries what the provider marks retryable (rate limits, 5xx, connection
 * failures) up to `maxRetries` times, honouring Retry-After. Anything else fails at once.
 */
export async function callWithRetries<T>(attempt: () => PromiseLike<T>, options: { maxRetries: number; signal?: AbortSignal }): Promise<T> {
  const errors: unknown[] = [];
  for (let attemptNumber = 0; ; attemptNumber += 1) {
    try {
      return await attempt();
    } catch (error) {
      errors.push(error);
      const retryable = APICallError.isInstance(error) && error.isRetryable;
      if (!retryable || attemptNumber >= options.maxRetries || options.signal?.aborted === true) {
        throw errors.length === 1 ? error : new RetriesExhaustedError(error, errors);
      }
      await sleep(retryDelayMs(error, attemptNumber + 1), options.signal);
    }
  }
}
