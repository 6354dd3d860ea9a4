export { RunEventFeed } from './run-event-feed.js';
export { RunService, newRunId, processAlive, type ActiveRun, type RunHandle, type RunServiceOptions, type RunSpec } from './run-service.js';
