import { ForgeError } from '../../core/index.js';

/**
 * The store could not take a write: it is closed, its queue is full, or another process held the
 * database's lock for too long. Nothing of the refused write was stored; the caller decides what fails.
 */
export class StoreUnavailableError extends ForgeError {
  constructor(reason: string, hint: string) {
    super({ name: 'StoreUnavailableError', message: `The store cannot take this write: ${reason}.`, hint });
  }
}
