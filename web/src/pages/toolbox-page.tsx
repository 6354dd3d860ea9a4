import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import type { Session, ToolboxEntry } from '../api/types.js';
import { Badge, Cost, Empty, ErrorNote, Field, Json, Loading, PageTitle, Section, StatusBadge } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';

function ToolboxCard({ entry }: { entry: ToolboxEntry }) {
  const { t } = usePreferences();
  return (
    <li className={`rounded-md border p-3 ${entry.status === 'failed' ? 'border-red-400 dark:border-red-700' : 'border-stone-200 dark:border-stone-700'}`} data-testid="toolbox-entry" data-status={entry.status}>
      <p className="flex flex-wrap items-center gap-2">
        <code className="font-mono font-semibold">{entry.name}</code>
        <StatusBadge status={entry.status} />
        <Badge tone="gray">{entry.origin}</Badge>
        <span className="muted text-xs">
          {t('toolbox.uses', { n: entry.uses })} · {t('toolbox.revisions', { n: entry.revisions })} · <Cost costUsd={entry.cost_usd} />
        </span>
      </p>
      <p className="mt-1 text-sm">{entry.description}</p>
      {entry.failures.length === 0 ? null : (
        <div className="mt-2 rounded-md border-2 border-red-600 bg-red-50 p-2 dark:border-red-500 dark:bg-red-950">
          <p className="text-sm font-semibold text-red-900 dark:text-red-100">{t('toolbox.failures')}</p>
          <Json value={entry.failures.join('\n')} />
        </div>
      )}
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-medium">{t('toolbox.source')}</summary>
        <Json value={entry.source} />
      </details>
      <details className="mt-1">
        <summary className="cursor-pointer text-sm font-medium">{t('toolbox.test')}</summary>
        <Json value={entry.test} />
      </details>
    </li>
  );
}

/** Add a hand-written tool: it goes through the same verification gate as a synthesized one. */
function AddTool() {
  const { t } = usePreferences();
  const queries = useQueryClient();
  const [toolSource, setToolSource] = useState('');
  const [testSource, setTestSource] = useState('');
  const [added, setAdded] = useState<{ name: string; status: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setAdded(await api.addTool({ tool_source: toolSource, test_source: testSource }));
      await queries.invalidateQueries({ queryKey: ['toolbox'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('toolbox.add')}>
      <form onSubmit={(event) => void submit(event)}>
        <Field label={t('toolbox.toolSource')}>{(id) => <textarea id={id} className="input min-h-32 font-mono text-xs" dir="ltr" value={toolSource} onChange={(event) => setToolSource(event.target.value)} required />}</Field>
        <Field label={t('toolbox.testSource')}>{(id) => <textarea id={id} className="input min-h-32 font-mono text-xs" dir="ltr" value={testSource} onChange={(event) => setTestSource(event.target.value)} required />}</Field>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('common.loading') : t('common.add')}
        </button>
      </form>
      <ErrorNote error={error} />
      {added === undefined ? null : (
        <p className="mt-2 text-sm" role="status">
          {t('toolbox.added', { name: added.name, status: added.status })}
        </p>
      )}
    </Section>
  );
}

export default function ToolboxPage({ session }: { session: Session }) {
  const { t } = usePreferences();
  const admin = session.via === 'operator' || session.user?.role === 'admin';
  const catalog = useQuery({ queryKey: ['tools'], queryFn: api.tools });
  const toolbox = useQuery({ queryKey: ['toolbox'], queryFn: api.toolbox, enabled: admin });
  const entries = toolbox.data?.toolbox ?? [];
  const living = entries.filter((entry) => entry.status !== 'failed');
  const graveyard = entries.filter((entry) => entry.status === 'failed');
  return (
    <div>
      <PageTitle>{t('toolbox.title')}</PageTitle>
      {admin ? (
        <>
          <Section title={t('toolbox.synthesized')}>
            {toolbox.isPending ? <Loading /> : null}
            <ErrorNote error={toolbox.error} />
            {!toolbox.isPending && living.length === 0 ? <Empty>{t('common.none')}</Empty> : null}
            <ul className="flex flex-col gap-2">{living.map((entry) => <ToolboxCard key={entry.name} entry={entry} />)}</ul>
          </Section>
          <Section title={t('toolbox.graveyard')}>
            {!toolbox.isPending && graveyard.length === 0 ? <Empty>{t('common.none')}</Empty> : null}
            <ul className="flex flex-col gap-2" data-testid="graveyard">{graveyard.map((entry) => <ToolboxCard key={entry.name} entry={entry} />)}</ul>
          </Section>
          <AddTool />
        </>
      ) : (
        <p className="muted mb-4">{t('toolbox.adminOnly')}</p>
      )}
      <Section title={t('toolbox.catalog')}>
        {catalog.isPending ? <Loading /> : null}
        <ErrorNote error={catalog.error} />
        <ul className="grid gap-2 md:grid-cols-2">
          {(catalog.data?.tools ?? []).map((tool) => (
            <li key={tool.name} className="rounded-md border border-stone-200 p-2 text-sm dark:border-stone-700">
              <p className="flex flex-wrap items-center gap-2">
                <code className="font-mono font-semibold">{tool.name}</code>
                <Badge tone={tool.risk === 'low' ? 'green' : tool.risk === 'medium' ? 'blue' : tool.risk === 'high' ? 'amber' : 'red'}>{t('toolbox.risk', { risk: tool.risk })}</Badge>
                <Badge tone={tool.side_effect === 'write' ? 'red' : 'gray'}>{tool.side_effect}</Badge>
              </p>
              <p className="muted mt-1">{tool.description}</p>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
