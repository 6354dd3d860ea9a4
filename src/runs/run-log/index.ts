export { runLogPath } from './run-log-path.js';
export { RunRecorder } from './run-recorder.js';
export { NO_USAGE, sumUsage, type UsageTotals } from './usage-totals.js';
export { SYNTHESIS_EVENT_TYPES, SynthesisTally, type SynthesisEvent, type SynthesisTotals } from './synthesis-tally.js';
export { totalsFromEvents, type RunTotals } from './run-totals.js';
export { AggregateTally, aggregateTotals, type AggregateTotals } from './aggregate-totals.js';
export { iterateRunLog, iterateRunLogEntries, readRunLog, unendedRunLogError, type RunLogEntry, type RunLogReadResult } from './read-run-log.js';
export { StoreRowDeriver, type StoreRows } from './store-rows.js';
