import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import type { McpServer, Session } from '../api/types.js';
import { Empty, ErrorNote, Field, Json, Loading, Ltr, PageTitle, Section, StatusBadge } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';

/** A discovered tool; its input schema is fetched when opened. */
function DiscoveredTool({ name }: { name: string }) {
  const { t } = usePreferences();
  const [open, setOpen] = useState(false);
  const tool = useQuery({ queryKey: ['tool', name], queryFn: () => api.tool(name), enabled: open });
  return (
    <li>
      <details onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
        <summary className="cursor-pointer text-sm">
          <code className="font-mono">{name}</code>
        </summary>
        {tool.isLoading ? <Loading /> : null}
        <ErrorNote error={tool.error} />
        {tool.data === undefined ? null : (
          <>
            <p className="muted text-sm">{tool.data.description}</p>
            <Json value={tool.data.input_schema} label={t('mcp.schema')} />
          </>
        )}
      </details>
    </li>
  );
}

function ServerCard({ server }: { server: McpServer }) {
  const { t } = usePreferences();
  const queries = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      await queries.invalidateQueries({ queryKey: ['mcp'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="card" data-testid="mcp-server">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold">{server.name}</span>
          <StatusBadge status={server.state} />
          <Ltr className="muted break-all text-xs">{server.url}</Ltr>
          <span className="muted text-xs">{server.transport}</span>
        </p>
        <div className="flex gap-2">
          <button type="button" className="btn" disabled={busy} onClick={() => void act(() => api.refreshMcpServer(server.name))}>
            {t('common.refresh')}
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void act(() => api.removeMcpServer(server.name))}>
            {t('common.remove')}
          </button>
        </div>
      </div>
      {server.last_error === null ? null : (
        <p className="mt-2 text-sm text-red-800 dark:text-red-300">
          {t('mcp.lastError')}: {server.last_error.message}
        </p>
      )}
      <h3 className="mt-2 text-sm font-semibold">{t('mcp.tools')}</h3>
      {server.tools.length === 0 ? <Empty>{t('common.none')}</Empty> : <ul className="flex flex-col gap-1">{server.tools.map((tool) => <DiscoveredTool key={tool} name={tool} />)}</ul>}
      <ErrorNote error={error} />
    </li>
  );
}

export default function McpPage({ session }: { session: Session }) {
  const { t } = usePreferences();
  const queries = useQueryClient();
  const admin = session.via === 'operator' || session.user?.role === 'admin';
  const servers = useQuery({ queryKey: ['mcp'], queryFn: api.mcpServers, enabled: admin });
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [transport, setTransport] = useState<'streamable-http' | 'sse'>('streamable-http');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.addMcpServer({ name: name.trim(), url: url.trim(), transport });
      setName('');
      setUrl('');
      await queries.invalidateQueries({ queryKey: ['mcp'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  if (!admin) {
    return (
      <div>
        <PageTitle>{t('mcp.title')}</PageTitle>
        <p className="muted">{t('mcp.adminOnly')}</p>
      </div>
    );
  }
  return (
    <div>
      <PageTitle>{t('mcp.title')}</PageTitle>
      {servers.isPending ? <Loading /> : null}
      <ErrorNote error={servers.error} />
      {servers.data?.mcp_servers.length === 0 ? <Empty>{t('mcp.empty')}</Empty> : null}
      <ul className="mb-4 flex flex-col gap-3">{(servers.data?.mcp_servers ?? []).map((server) => <ServerCard key={server.name} server={server} />)}</ul>
      <Section title={t('mcp.add')}>
        <form onSubmit={(event) => void add(event)} className="grid gap-x-4 sm:grid-cols-3">
          <Field label={t('common.name')}>{(id) => <input id={id} className="input" dir="ltr" value={name} onChange={(event) => setName(event.target.value)} required />}</Field>
          <Field label={t('mcp.url')}>{(id) => <input id={id} className="input" dir="ltr" type="url" value={url} onChange={(event) => setUrl(event.target.value)} required />}</Field>
          <Field label={t('mcp.transport')}>
            {(id) => (
              <select id={id} className="input" value={transport} onChange={(event) => setTransport(event.target.value as typeof transport)}>
                <option value="streamable-http">Streamable HTTP</option>
                <option value="sse">SSE</option>
              </select>
            )}
          </Field>
          <div>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t('common.add')}
            </button>
          </div>
        </form>
        <ErrorNote error={error} />
      </Section>
    </div>
  );
}
