export { RunEventFeed } from './run-event-feed.js';
export { endInterruptedRun, endInterruptedRuns, processAlive } from './interrupted-runs.js';
export { followRemoteRun } from './remote-run-events.js';
export { AmbiguousRunIdError, resolveRun } from './run-reference.js';
export { RunNotDeletableError, RunNotResumableError, RunService, newRunId, type ActiveRun, type DeletedRun, type ResumeSpec, type ResumedRun, type RunHandle, type RunServiceOptions, type RunSpec } from './run-service.js';
export { runView, storedStepView, type RunView, type StoredStepView } from './run-view.js';
export { DEFAULT_APPROVAL_TIMEOUT_MS, StoredApprovalGate, type StoredApprovalGateOptions } from '../policy/approvals/stored-approval-gate.js';
export { approvalGrantView, approvalGrantViewSchema, approvalView, approvalViewSchema, type ApprovalGrantView, type ApprovalView } from '../policy/approvals/approval-view.js';
export { ApprovalSealer, describeSealCheck, type SealCheck } from '../policy/approvals/approval-seal.js';
