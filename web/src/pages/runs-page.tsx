import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { Cost, Empty, ErrorNote, Field, formatNumber, formatTime, Loading, Ltr, PageTitle, StatusBadge } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { Link } from '../router.js';

const STATUSES = ['running', 'waiting', 'completed', 'failed', 'cancelled', 'refused'] as const;
const KINDS = ['agent', 'converge', 'skill', 'tool-call'] as const;

/** Every run of the caller's, newest first, filtered by status (on the server), kind and words of the task. */
export default function RunsPage() {
  const { t, language } = usePreferences();
  const [status, setStatus] = useState('');
  const [kind, setKind] = useState('');
  const [search, setSearch] = useState('');
  const runs = useInfiniteQuery({
    queryKey: ['runs', status],
    queryFn: ({ pageParam }) => api.runs({ status, ...(pageParam === undefined ? {} : { cursor: pageParam }) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const words = search.trim().toLowerCase();
  const shown = (runs.data?.pages ?? []).flatMap((page) => page.runs).filter((run) => (kind === '' || run.kind === kind) && (words === '' || run.task.toLowerCase().includes(words)));
  return (
    <div>
      <PageTitle>{t('runs.title')}</PageTitle>
      <div className="card mb-4 grid gap-3 sm:grid-cols-3">
        <Field label={t('runs.filterStatus')}>
          {(id) => (
            <select id={id} className="input" value={status} onChange={(event) => setStatus(event.target.value)}>
              <option value="">{t('common.all')}</option>
              {STATUSES.map((each) => (
                <option key={each} value={each}>
                  {t(`status.${each}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('runs.filterKind')}>
          {(id) => (
            <select id={id} className="input" value={kind} onChange={(event) => setKind(event.target.value)}>
              <option value="">{t('common.all')}</option>
              {KINDS.map((each) => (
                <option key={each} value={each}>
                  {each}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('runs.search')}>{(id) => <input id={id} className="input" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />}</Field>
      </div>
      {runs.isPending ? <Loading /> : null}
      <ErrorNote error={runs.error} />
      {!runs.isPending && shown.length === 0 ? <Empty>{t('runs.empty')}</Empty> : null}
      <ul className="flex flex-col gap-2" aria-label={t('runs.title')}>
        {shown.map((run) => (
          <li key={run.run_id} className="card p-3" data-testid="run-row">
            <div className="flex flex-wrap items-center gap-2">
              <StatusBadge status={run.status} />
              <span className="muted text-xs">{run.kind}</span>
              <Link to={`/runs/${encodeURIComponent(run.run_id)}`} className="min-w-0 flex-1 truncate font-medium text-orange-800 underline dark:text-orange-300" dir="auto">
                {run.task}
              </Link>
            </div>
            <div className="muted mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs">
              <Ltr>{run.run_id}</Ltr>
              <Ltr>{run.model}</Ltr>
              <span>{t('cost.calls', { n: formatNumber(run.llm_calls) })}</span>
              <Cost costUsd={run.cost_usd} pricedCostUsd={run.cost_usd_known} unpricedCalls={run.unpriced_calls} />
              {run.halt_reason === null ? null : <span>{run.halt_reason}</span>}
              <span>{formatTime(run.created_at, language)}</span>
            </div>
          </li>
        ))}
      </ul>
      {runs.hasNextPage ? (
        <button type="button" className="btn mt-3" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
          {t('runs.more')}
        </button>
      ) : null}
    </div>
  );
}
