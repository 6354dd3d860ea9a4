import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { Empty, ErrorNote, formatTime, Json, Loading, Ltr, PageTitle } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';

function AgentDefinition({ slug }: { slug: string }) {
  const detail = useQuery({ queryKey: ['agent', slug], queryFn: () => api.agent(slug) });
  if (detail.isPending) return <Loading />;
  if (detail.error !== null) return <ErrorNote error={detail.error} />;
  return <Json value={detail.data.definition} />;
}

/** The installation's agent definitions, each at its active version; its definition on demand. */
export default function AgentsPage() {
  const { t, language } = usePreferences();
  const agents = useQuery({ queryKey: ['agents'], queryFn: api.agents });
  const [open, setOpen] = useState<string | undefined>();
  return (
    <div>
      <PageTitle>{t('agents.title')}</PageTitle>
      {agents.isPending ? <Loading /> : null}
      <ErrorNote error={agents.error} />
      {agents.data?.agents.length === 0 ? <Empty>{t('agents.empty')}</Empty> : null}
      <ul className="flex flex-col gap-3">
        {(agents.data?.agents ?? []).map((agent) => (
          <li key={agent.slug} className="card">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-semibold">{agent.name}</span>
              <Ltr className="muted font-mono text-xs">{agent.slug}</Ltr>
              <span className="muted text-xs">{t('agents.version', { active: agent.active_version, latest: agent.latest_version })}</span>
              <span className="muted text-xs">{formatTime(agent.updated_at, language)}</span>
            </p>
            <button type="button" className="btn mt-2" aria-expanded={open === agent.slug} onClick={() => setOpen(open === agent.slug ? undefined : agent.slug)}>
              {t('common.details')}
            </button>
            {open === agent.slug ? <AgentDefinition slug={agent.slug} /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
