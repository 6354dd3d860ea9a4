import { ConfigurationError, type JobRetry } from '../../core/index.js';

/** Throws `ConfigurationError` unless `concurrency` is a whole number ≥ 1. */
export function checkConcurrency(concurrency: number): void {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new ConfigurationError('concurrency', `must be a whole number ≥ 1, got ${concurrency}.`);
}

/** Throws `ConfigurationError` unless `retry` has whole attempts ≥ 1 and a backoff ≥ 0. */
export function checkRetry(retry: JobRetry): void {
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1) throw new ConfigurationError('retry.attempts', `must be a whole number ≥ 1, got ${retry.attempts}.`);
  if (!(retry.backoff.delayMs >= 0)) throw new ConfigurationError('retry.backoff.delayMs', `must be ≥ 0, got ${retry.backoff.delayMs}.`);
}
