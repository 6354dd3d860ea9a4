import { StoredApprovalGate } from '../../runs/index.js';
import type { ForgeRuntime } from '../../compose/create-runtime.js';

/** The gate of a run that waits for its approvals (the API's, `--wait-for-approval`, a resume): stored, signed, single use. */
export function storedApprovals(runtime: Pick<ForgeRuntime, 'store' | 'config' | 'approvalSealer'>): StoredApprovalGate {
  return new StoredApprovalGate(runtime.store, { timeoutMs: runtime.config.approvalTimeoutMs, sealer: runtime.approvalSealer });
}
