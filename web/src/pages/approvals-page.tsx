import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import type { Approval, ApprovalAnswer } from '../api/types.js';
import { Empty, ErrorNote, Field, formatTime, Loading, Ltr, PageTitle, ResumeFailedNote } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { Link } from '../router.js';

const POLL_MS = 3_000;

function PendingApproval({ approval, onResumeFailed }: { approval: Approval; onResumeFailed: (error: NonNullable<ApprovalAnswer['resume_error']>) => void }) {
  const { t, language } = usePreferences();
  const queries = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const answer = async (decision: 'approve' | 'deny') => {
    setBusy(true);
    setError(null);
    try {
      const answered = await api.answerApproval(approval.run_id, approval.call_id, decision, decision === 'deny' ? { reason: reason.trim() } : {});
      if (answered.resume_error !== null) onResumeFailed(answered.resume_error);
      await queries.invalidateQueries({ queryKey: ['approvals'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="card" data-testid="approval-row">
      <p className="flex flex-wrap items-center gap-2">
        <code className="font-mono font-semibold">{approval.tool}</code>
        <Link to={`/runs/${encodeURIComponent(approval.run_id)}`} className="text-sm text-orange-800 underline dark:text-orange-300">
          {t('approvals.run')} <Ltr>{approval.run_id}</Ltr>
        </Link>
        <span className="muted text-xs">
          {t('approvals.requested')} {formatTime(approval.requested_at, language)}
        </span>
      </p>
      <p className="mt-1 text-sm" dir="auto">{approval.reason}</p>
      <p className="muted mt-1 text-xs">
        <Ltr className="font-mono">{`sha256 ${approval.input_digest.slice(0, 16)}…`}</Ltr>
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field label={t('approval.reason')}>{(id) => <input id={id} className="input" value={reason} onChange={(event) => setReason(event.target.value)} />}</Field>
        </div>
        <div className="mb-3 flex gap-2">
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void answer('approve')}>
            {t('approval.approve')}
          </button>
          <button type="button" className="btn btn-danger" disabled={busy || reason.trim() === ''} onClick={() => void answer('deny')}>
            {t('approval.deny')}
          </button>
        </div>
      </div>
      <ErrorNote error={error} />
    </li>
  );
}

/** Every call waiting for an approval, across the caller's runs, oldest first. */
export default function ApprovalsPage() {
  const { t } = usePreferences();
  const approvals = useQuery({ queryKey: ['approvals'], queryFn: api.approvals, refetchInterval: POLL_MS });
  // An answer whose run could not go on stays said after its request leaves the list.
  const [resumeFailures, setResumeFailures] = useState<Array<{ key: string; runId: string; error: NonNullable<ApprovalAnswer['resume_error']> }>>([]);
  return (
    <div>
      <PageTitle>{t('approvals.title')}</PageTitle>
      {resumeFailures.map((failure) => (
        <div key={failure.key}>
          <Link to={`/runs/${encodeURIComponent(failure.runId)}`} className="text-sm text-orange-800 underline dark:text-orange-300">
            {t('approvals.run')} <Ltr>{failure.runId}</Ltr>
          </Link>
          <ResumeFailedNote error={failure.error} />
        </div>
      ))}
      {approvals.isPending ? <Loading /> : null}
      <ErrorNote error={approvals.error} />
      {approvals.data?.approvals.every((approval) => approval.status !== 'pending') === true ? <Empty>{t('approvals.empty')}</Empty> : null}
      <ul className="flex flex-col gap-3">
        {(approvals.data?.approvals ?? []).filter((approval) => approval.status === 'pending').map((approval) => (
          <PendingApproval
            key={`${approval.run_id}/${approval.call_id}`}
            approval={approval}
            onResumeFailed={(error) => setResumeFailures((failures) => [...failures, { key: `${approval.run_id}/${approval.call_id}`, runId: approval.run_id, error }])}
          />
        ))}
      </ul>
    </div>
  );
}
