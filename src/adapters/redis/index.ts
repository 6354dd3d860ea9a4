export { DEFAULT_REDIS_CONNECT_TIMEOUT_MS, connectRedis, connectionTarget, duplicateConnection, redisTarget, type ConnectRedisOptions } from './redis-connection.js';
export { RedisUnavailableError } from './redis-unavailable-error.js';
export { RedisSubscriber } from './redis-subscriber.js';
export { openRedisClients, type RedisClients, type RedisConnectionOptions } from './redis-clients.js';
export { refuseRedisWithoutPassword } from './redis-password-check.js';
