export { RunEventFeed } from './run-event-feed.js';
export { endInterruptedRuns, processAlive } from './interrupted-runs.js';
export { RunService, newRunId, type ActiveRun, type RunHandle, type RunServiceOptions, type RunSpec } from './run-service.js';
export { runView, type RunView } from './run-view.js';
