export { InProcessJobQueue, type InProcessJobQueueOptions } from './in-process-job-queue.js';
export { BullmqJobQueue, type BullmqJobQueueOptions } from './bullmq-job-queue.js';
