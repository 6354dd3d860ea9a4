export { BullmqJobQueue, type BullmqJobQueueOptions } from './bullmq-job-queue.js';
