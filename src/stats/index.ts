export type { AggregateStats, RunStats, SynthesisFigures, ToolFigures } from './stats-report.js';
export { allRunsStats, newestRunStats, storedRunStats } from './stored-stats.js';
export { RUN_LOGS_OPEN_AT_ONCE, runLogStats, runLogsStats } from './run-log-stats.js';
export { StatsService, answerStats, type StatsAnswer, type StatsRequest } from './stats-service.js';
