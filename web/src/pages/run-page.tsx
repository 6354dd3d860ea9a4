import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { readableOutput } from '../../../src/security/readable-output.js';
import { api } from '../api/client.js';
import { useRunStream } from '../api/run-stream.js';
import { runViewOf, type RunView } from '../api/run-view.js';
import type { ForgeEvent } from '../api/types.js';
import { RunTranscript } from '../components/run-transcript.js';
import { SaveSkill } from '../components/save-skill.js';
import { Badge, Cost, CostFigures, costText, ErrorNote, formatNumber, Json, Loading, Ltr, PageTitle, ScrollingTable, Section, StatusBadge } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { useLocation } from '../router.js';

/** One line of the timeline: what the event says, in a few words. */
function eventSummary(event: ForgeEvent, t: ReturnType<typeof usePreferences>['t']): string {
  switch (event.type) {
    case 'run-start':
      return `${event.model} · ${event.task}`;
    case 'tool-call-start':
      return `${event.tool} ${JSON.stringify(event.input)}`;
    case 'tool-result':
      return `${event.tool} · ${Math.round(event.duration_ms)} ms · ${readableOutput(event.output).slice(0, 120)}`;
    case 'tool-error':
      return `${event.tool} · ${event.error.message}`;
    case 'policy-decision':
      return `${event.tool} · ${event.decision} · ${event.reason}`;
    case 'approval-request':
      return `${event.tool} · ${event.reason}`;
    case 'approval-answer':
      return `${event.call_id} · ${event.decision}${event.reason === null ? '' : ` · ${event.reason}`}`;
    case 'model-call':
      return `${event.model} · ${event.tokens.input}/${event.tokens.output} tokens · ${costText(t, { costUsd: event.cost_usd })} · ${Math.round(event.latency_ms)} ms`;
    case 'assistant-text':
      return event.text.slice(0, 160);
    case 'run-end':
      return `${event.status} · ${event.halt_reason}`;
    case 'verification-failed':
      return `${event.tool} revision ${event.revision}`;
    case 'toolbox-change':
      return `${event.tool} → ${event.status}`;
    case 'skill-step':
      return `${event.skill} step ${event.step + 1} · ${event.tool}`;
    default:
      return '';
  }
}

const STEP_TONES = { pending: 'gray', in_progress: 'blue', done: 'green', blocked: 'red' } as const;
const TOOL_TONES = { draft: 'gray', testing: 'blue', promoted: 'green', failed: 'red' } as const;

/** Converge runs: the toolbox by status colour, the plan with the convergence indicator, real sandbox failures in red. */
function ConvergePanels({ view }: { view: RunView }) {
  const { t } = usePreferences();
  const convergence = view.convergence;
  return (
    <>
      <Section
        title={t('run.plan')}
        actions={
          convergence === undefined ? null : (
            <span data-testid="convergence">
              <Badge tone={view.end?.halt_reason === 'converged' ? 'green' : convergence.plan_stable && convergence.toolbox_stable ? 'blue' : 'amber'}>
                {view.end?.halt_reason === 'converged' ? t('run.converged') : t('run.convergence', { streak: convergence.stable_streak, threshold: convergence.threshold })}
              </Badge>
            </span>
          )
        }
      >
        <ol className="flex flex-col gap-1">
          {(view.plan?.steps ?? []).map((step) => (
            <li key={step.id} className="flex items-center gap-2 text-sm">
              <Badge tone={STEP_TONES[step.status]}>{step.status.replace('_', ' ')}</Badge>
              {step.title}
            </li>
          ))}
        </ol>
      </Section>
      <Section title={t('run.toolbox')}>
        <ul className="flex flex-wrap gap-2">
          {[...view.toolbox.values()].map((tool) => (
            <li key={tool.tool} data-testid="toolbox-chip">
              <Badge tone={TOOL_TONES[tool.status]}>
                <Ltr className="font-mono">{tool.tool}</Ltr> · {t(`status.${tool.status}`)} · {t('toolbox.revisions', { n: tool.revisions })} · {t('toolbox.uses', { n: tool.uses })}
              </Badge>
            </li>
          ))}
        </ul>
      </Section>
      {view.verifications.map((failure) => (
        <section key={failure.seq} className="mb-4 rounded-lg border-2 border-red-600 bg-red-50 p-4 dark:border-red-500 dark:bg-red-950" data-testid="verification-failed" aria-label={t('run.verification', { tool: failure.tool, revision: failure.revision })}>
          <h2 className="mb-2 font-semibold text-red-900 dark:text-red-100">{t('run.verification', { tool: failure.tool, revision: failure.revision })}</h2>
          <Json value={failure.output} />
        </section>
      ))}
    </>
  );
}

export default function RunPage({ params }: { params: Record<string, string> }) {
  const { t } = usePreferences();
  const runId = params['run']!;
  const { query } = useLocation();
  const queries = useQueryClient();
  const stream = useRunStream(runId);
  const view = useMemo(() => runViewOf(stream.events), [stream.events]);
  const run = useQuery({ queryKey: ['run', runId, view.end?.seq ?? -1, view.paused], queryFn: () => api.run(runId) });
  const [actionError, setActionError] = useState<unknown>(null);
  const act = async (action: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await action();
      await queries.invalidateQueries({ queryKey: ['run', runId] });
    } catch (caught) {
      setActionError(caught);
    }
  };
  if (run.isPending) return <Loading />;
  if (run.error !== null) return <ErrorNote error={run.error} />;
  const record = run.data;
  const converge = record.kind === 'converge' || view.plan !== undefined || view.toolbox.size > 0;
  return (
    <div>
      <PageTitle
        actions={
          <div className="flex flex-wrap gap-2">
            <a className="btn" href={api.runLogUrl(runId)} download>
              {t('run.download')}
            </a>
            {record.status === 'running' || record.status === 'waiting' ? (
              <button type="button" className="btn btn-danger" onClick={() => void act(() => api.cancelRun(runId))}>
                {t('run.cancel')}
              </button>
            ) : null}
            {record.halt_reason === 'interrupted' ? (
              <button type="button" className="btn" onClick={() => void act(() => api.resumeRun(runId))}>
                {t('run.resume')}
              </button>
            ) : null}
          </div>
        }
      >
        <span className="break-all">{t('run.title', { id: '' })}</span> <Ltr className="text-lg">{runId}</Ltr>
      </PageTitle>
      <ErrorNote error={actionError} />
      <Section title={<bdi>{record.task}</bdi>}>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="muted">{t('common.status')}</dt>
            <dd><StatusBadge status={record.status} /></dd>
          </div>
          <div>
            <dt className="muted">{t('run.halt')}</dt>
            <dd data-testid="halt-reason">{record.halt_reason ?? '—'}</dd>
          </div>
          <div>
            <dt className="muted">{t('runs.model')}</dt>
            <dd><Ltr>{record.model}</Ltr></dd>
          </div>
          <div>
            <dt className="muted">{t('runs.cost')}</dt>
            <dd><CostFigures llmCalls={record.llm_calls} input={record.tokens.input} output={record.tokens.output} costUsd={record.cost_usd} pricedCostUsd={record.cost_usd_known} unpricedCalls={record.unpriced_calls} /></dd>
          </div>
        </dl>
        {record.answer === null ? null : (
          <>
            <h3 className="mt-3 font-semibold">{t('run.answer')}</h3>
            <p className="whitespace-pre-wrap" dir="auto">{record.answer}</p>
          </>
        )}
        {record.error === null ? null : <p className="mt-2 text-red-800 dark:text-red-300">{record.error}</p>}
        {view.end?.warnings === undefined ? null : (
          <div className="mt-2 rounded-md border border-amber-500 p-2 text-sm" role="note">
            <p className="font-semibold">{t('run.warnings')}</p>
            <ul>{view.end.warnings.map((warning) => <li key={warning}>{warning}</li>)}</ul>
          </div>
        )}
      </Section>
      {record.status === 'completed' && query.get('save') === '1' ? <SaveSkill runId={runId} task={record.task} /> : null}
      {converge ? <ConvergePanels view={view} /> : null}
      <Section title={t('run.timeline')}>
        <RunTranscript runId={runId} view={view} stream={stream} />
      </Section>
      <Section title={t('run.modelCalls')}>
        <ScrollingTable label={t('run.modelCalls')}>
          <thead>
            <tr className="text-start">
              <th scope="col" className="p-1 text-start">#</th>
              <th scope="col" className="p-1 text-start">{t('runs.model')}</th>
              <th scope="col" className="p-1 text-start">{t('run.purpose')}</th>
              <th scope="col" className="p-1 text-start">{t('run.tokens')}</th>
              <th scope="col" className="p-1 text-start">{t('run.dollars')}</th>
              <th scope="col" className="p-1 text-start">{t('run.latency')}</th>
            </tr>
          </thead>
          <tbody>
            {view.modelCalls.map((call, index) => (
              <tr key={call.seq} className="border-t border-stone-200 dark:border-stone-700" data-testid="model-call">
                <td className="p-1"><Ltr>{index + 1}</Ltr></td>
                <td className="p-1"><Ltr>{call.model}</Ltr></td>
                <td className="p-1">{call.purpose}</td>
                <td className="p-1"><Ltr>{`${formatNumber(call.tokens.input)} / ${formatNumber(call.tokens.output)}`}</Ltr></td>
                <td className="p-1"><Cost costUsd={call.cost_usd} /></td>
                <td className="p-1"><Ltr>{`${Math.round(call.latency_ms)} ms`}</Ltr></td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </Section>
      <Section title={t('run.events')}>
        <ol className="flex flex-col gap-1 font-mono text-xs" data-testid="event-list">
          {stream.events.map((event) => (
            <li key={event.seq} className={`flex gap-2 rounded px-1 ${event.type === 'verification-failed' || event.type === 'tool-error' || event.type === 'model-error' ? 'bg-red-100 text-red-950 dark:bg-red-950 dark:text-red-100' : ''}`} data-seq={event.seq}>
              <Ltr className="w-8 shrink-0 text-end">{event.seq}</Ltr>
              <span className="shrink-0 font-semibold">{event.type}</span>
              <span className="min-w-0 break-all" dir="auto">{eventSummary(event, t)}</span>
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}
