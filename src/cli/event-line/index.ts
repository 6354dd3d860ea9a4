// The plain one-line-per-event trace, kept apart from the Ink view so headless commands never load React.
export { formatEventLine } from '../tui/format-event-line.js';
