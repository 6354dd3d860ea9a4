export { InProcessEventBus, type InProcessEventBusOptions } from './in-process-event-bus.js';
export { createRunEmitter, type RunEmitter } from './run-emitter.js';
