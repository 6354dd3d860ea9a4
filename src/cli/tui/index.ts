export { startLiveView, type LiveView, type LiveViewOptions } from './live-view.js';
export { ProgressIndicator, type ProgressIndicatorProps } from './progress-indicator.js';
export { reduceViewState, viewStateFromEvents } from './reduce-view-state.js';
export { ReplaySession, type ReplaySessionOptions, type ReplaySnapshot } from './replay-session.js';
export { runReplayView, type ReplayViewClosing, type ReplayViewOptions } from './replay-view.js';
export { RunView, type Notice, type RunViewProps } from './run-view.js';
export {
  emptyViewState,
  type ConvergenceCheck,
  type ModelCallInFlight,
  type PlanStep,
  type TextDraft,
  type ToolboxEntry,
  type ToolboxStatus,
  type ViewEvent,
  type ViewState,
  type ViewTotals,
} from './view-state.js';
