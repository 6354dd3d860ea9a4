export { openRedisScaling, type RedisScaling, type RedisScalingOptions } from './open-redis-scaling.js';
