// @ts-check
/** @typedef {import('./worker-protocol.js').WorkerFailureKind} WorkerFailureKind */
/** @typedef {import('./worker-protocol.js').GuestErrorData} GuestErrorData */

/** A job step that could not continue; carries the outcome the worker reports. */
export class JobFailure extends Error {
  /** @param {WorkerFailureKind} failure @param {GuestErrorData} error */
  constructor(failure, error) {
    super(error.message);
    this.failure = failure;
    this.error = error;
  }
}
