import { afterAll, afterEach } from 'vitest';
import { redisTestKeys, TEST_REDIS_URL } from '../../test/support/redis-test-keys.js';
import { BullmqJobQueue } from './bullmq-job-queue.js';
import { describeJobQueueContract } from './job-queue-contract.js';

const keys = redisTestKeys('queue');

afterEach(async () => {
  await keys.cleanup();
});

afterAll(async () => {
  await keys.close();
});

describeJobQueueContract('BullMQ', () => BullmqJobQueue.open({ url: TEST_REDIS_URL, prefix: keys.prefix() }));
