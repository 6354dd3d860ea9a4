import { ForgeError } from '../../core/index.js';

/** The event fan-out was closed; nothing was published or followed. */
export class EventFanOutClosedError extends ForgeError {
  constructor() {
    super({ name: 'EventFanOutClosedError', message: 'The event fan-out is closed.', hint: 'Publish and follow runs before closing the fan-out, or open a new one.' });
  }
}
