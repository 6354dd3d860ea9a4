// How events read as text, kept apart from the Ink view so headless commands never load React.
export { describeEvent, formatErrorInfo, formatResolution } from './describe-event.js';
export { formatEventLine } from './format-event-line.js';
export { formatClockTime, formatCompactJson, formatCost, formatCount, formatDuration, formatQuantity, formatSize, truncateText } from './format-values.js';
