export { RedisEventFanOut, type RedisEventFanOutOptions } from './redis-event-fan-out.js';
export { EventFanOutClosedError } from './event-fan-out-closed-error.js';
