export { runLogPath } from './run-log-path.js';
export { RunRecorder } from './run-recorder.js';
export { totalsFromEvents, type RunTotals, type SynthesisTotals, type UsageTotals } from './run-totals.js';
export { aggregateTotals, type AggregateTotals } from './aggregate-totals.js';
export { iterateRunLog, readRunLog, type RunLogReadResult } from './read-run-log.js';
export { StoreRowDeriver, type StoreRows } from './store-rows.js';
