// How events read as text, kept apart from the Ink view so headless commands never load React.
export { describeEvent, formatErrorInfo, formatResolution } from './describe-event.js';
export { formatEventLine } from './format-event-line.js';
export { formatClockTime, formatCompactJson, formatCost, formatCostSum, formatCount, formatExactCost, formatDuration, formatQuantity, formatSize, truncateText } from './format-values.js';
