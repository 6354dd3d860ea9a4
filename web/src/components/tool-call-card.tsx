import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { resumeRunStream } from '../api/run-stream.js';
import type { ToolCallView } from '../api/run-view.js';
import type { ApprovalAnswer } from '../api/types.js';
import { usePreferences } from '../i18n/preferences.js';
import { Badge, ErrorNote, Field, Json, Ltr, ResumeFailedNote, StatusBadge } from './ui.js';

const PREVIEW_CHARACTERS = 400;

function durationOf(call: ToolCallView): number | undefined {
  return call.result?.duration_ms ?? call.error?.duration_ms;
}

/** Approve or deny (with a reason) a call that waits for its approval, right where it happened. */
function ApprovalPrompt({ runId, call }: { runId: string; call: ToolCallView }) {
  const { t } = usePreferences();
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [answered, setAnswered] = useState<'approve' | 'deny' | undefined>();
  const [resumeError, setResumeError] = useState<ApprovalAnswer['resume_error']>(null);
  const answer = async (decision: 'approve' | 'deny') => {
    setBusy(true);
    setError(null);
    try {
      const result = await api.answerApproval(runId, call.callId, decision, { ...(decision === 'deny' ? { reason: reason.trim() } : {}), ...(call.approvalRequest === undefined ? {} : { digest: call.approvalRequest.input_digest }) });
      setAnswered(decision);
      setResumeError(result.resume_error);
      // The run goes on once its last waiting call is answered; until then the stream stays paused.
      if (result.resumed) resumeRunStream(runId);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  if (answered !== undefined) {
    return (
      <>
        <p className="mt-2 text-sm" role="status" data-testid="approval-answer">
          {answered === 'approve' ? t('approval.approved') : t('approval.denied', { reason })}
        </p>
        <ResumeFailedNote error={resumeError} />
      </>
    );
  }
  const onDeny = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() !== '') void answer('deny');
  };
  return (
    <div className="mt-3 rounded-md border border-amber-400 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950" role="group" aria-label={t('approval.title', { tool: call.tool })} data-testid="approval-prompt">
      <p className="mb-2 text-sm font-semibold text-amber-950 dark:text-amber-100">{t('approval.title', { tool: call.tool })}</p>
      {call.approvalRequest === undefined ? null : <p className="mb-2 text-sm text-amber-950 dark:text-amber-100" dir="auto">{call.approvalRequest.reason}</p>}
      {denying ? (
        <form onSubmit={onDeny}>
          <Field label={t('approval.reason')} hint={t('approval.reasonRequired')}>
            {(id) => <input id={id} className="input" value={reason} onChange={(event) => setReason(event.target.value)} required autoFocus />}
          </Field>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn btn-danger" disabled={busy || reason.trim() === ''}>
              {t('approval.deny')}
            </button>
            <button type="button" className="btn" onClick={() => setDenying(false)} disabled={busy}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-primary" onClick={() => void answer('approve')} disabled={busy}>
            {t('approval.approve')}
          </button>
          <button type="button" className="btn" onClick={() => setDenying(true)} disabled={busy}>
            {t('approval.deny')}
          </button>
        </div>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

/** One tool call: the tool, its arguments, the policy's decision, its status and duration, a preview of its result. */
export function ToolCallCard({ runId, call, answerable }: { runId: string; call: ToolCallView; answerable: boolean }) {
  const { t } = usePreferences();
  const duration = durationOf(call);
  const output = call.result?.output ?? call.error?.error.message;
  const [expanded, setExpanded] = useState(false);
  const long = output !== undefined && output.length > PREVIEW_CHARACTERS;
  return (
    <article className="rounded-lg border border-stone-300 bg-stone-50 p-3 dark:border-stone-700 dark:bg-stone-900" aria-label={call.tool} data-testid="tool-card" data-tool={call.tool} data-call-id={call.callId} data-status={call.status}>
      <header className="flex flex-wrap items-center gap-2">
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 text-stone-600 dark:text-stone-400" fill="currentColor">
          <path d="M13.6 2.2a4.5 4.5 0 0 0-5.3 6l-5.7 5.7a1.5 1.5 0 1 0 2.1 2.1l5.7-5.7a4.5 4.5 0 0 0 6-5.3l-2.5 2.5-2.3-.5-.5-2.3 2.5-2.5Z" />
        </svg>
        <code className="font-mono text-sm font-semibold">{call.tool}</code>
        <StatusBadge status={call.status} />
        {call.policy === undefined ? null : (
          <span data-testid="policy-decision">
            <Badge tone={call.policy.decision === 'allow' ? 'green' : call.policy.decision === 'block' ? 'red' : 'amber'}>{t('tool.policy', { decision: call.policy.decision.replace('_', ' ') })}</Badge>
          </span>
        )}
        {call.result?.cached === true ? <Badge tone="blue">{t('tool.cached')}</Badge> : null}
        {call.result?.untrusted === true ? <Badge tone="violet">{t('tool.untrusted')}</Badge> : null}
        {duration === undefined ? null : <span className="muted text-xs"><Ltr>{t('tool.duration', { ms: Math.round(duration) })}</Ltr></span>}
      </header>
      {call.policy?.rule === undefined ? null : <p className="muted mt-1 text-xs" dir="auto">{call.policy.reason} · <Ltr>{call.policy.rule}</Ltr></p>}
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-medium">{t('tool.arguments')}</summary>
        <Json value={call.input} label={t('tool.arguments')} />
      </details>
      {output === undefined ? null : (
        <div className="mt-2">
          <p className="text-sm font-medium">{call.error === undefined ? t('tool.result') : t('tool.error')}</p>
          <Json value={expanded || !long ? output : `${output.slice(0, PREVIEW_CHARACTERS)}…`} label={t('tool.result')} />
          {long ? (
            <button type="button" className="btn mt-1" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
              {expanded ? t('common.close') : t('common.details')}
            </button>
          ) : null}
        </div>
      )}
      {call.logs.length === 0 ? null : (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-medium">{t('tool.logs')}</summary>
          <Json value={call.logs.join('\n')} />
        </details>
      )}
      {call.approvalAnswer === undefined ? null : (
        <p className="mt-2 text-sm" data-testid="approval-answer">
          {call.approvalAnswer.decision === 'approved' ? t('approval.approved') : call.approvalAnswer.decision === 'expired' ? t('approval.expired') : t('approval.denied', { reason: call.approvalAnswer.reason ?? '' })}
        </p>
      )}
      {call.status === 'awaiting_approval' && answerable ? <ApprovalPrompt runId={runId} call={call} /> : null}
    </article>
  );
}
