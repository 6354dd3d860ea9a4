export { runLogPath } from './run-log-path.js';
export { RunRecorder } from './run-recorder.js';
export { totalsFromEvents, type RunTotals } from './run-totals.js';
export { iterateRunLog, readRunLog, type RunLogReadResult } from './read-run-log.js';
