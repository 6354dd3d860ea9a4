export { InProcessEventBus, type InProcessEventBusOptions } from './in-process-event-bus.js';
export { createRunEmitter, type RunEmitter } from './run-emitter.js';
export { RedisEventFanOut, type RedisEventFanOutOptions } from '../adapters/events/redis-event-fan-out.js';
export { EventFanOutClosedError } from '../adapters/events/event-fan-out-closed-error.js';
