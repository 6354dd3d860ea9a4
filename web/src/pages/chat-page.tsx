import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api } from '../api/client.js';
import { useRunStream } from '../api/run-stream.js';
import { runViewOf } from '../api/run-view.js';
import { RunTranscript } from '../components/run-transcript.js';
import { CostFigures, Empty, ErrorNote, ForwardIcon, Loading, StatusBadge } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { Link, navigate } from '../router.js';

/** One turn: the user's message, then the run that answers it, live until it ends, with what it cost. */
function Turn({ runId, pendingText }: { runId: string; pendingText?: string }) {
  const { t } = usePreferences();
  const stream = useRunStream(runId);
  const view = useMemo(() => runViewOf(stream.events), [stream.events]);
  const task = view.start?.task ?? pendingText;
  const status = view.end?.status ?? (view.paused ? 'waiting' : 'running');
  return (
    <li className="flex flex-col gap-2" data-testid="turn" data-run-id={runId} data-event-count={stream.events.length} data-phase={stream.phase}>
      {task === undefined ? null : (
        <div className="max-w-[85%] self-end rounded-lg bg-orange-100 px-3 py-2 text-orange-950 dark:bg-orange-950 dark:text-orange-50">
          <p className="sr-only">{t('chat.you')}</p>
          <p className="whitespace-pre-wrap" dir="auto">{task}</p>
        </div>
      )}
      <div className="card max-w-full self-start sm:max-w-[92%]">
        <p className="sr-only">{t('chat.agent')}</p>
        <RunTranscript runId={runId} view={view} stream={stream} />
        <footer className="mt-3 flex flex-wrap items-center gap-3 border-t border-stone-200 pt-2 dark:border-stone-700">
          <StatusBadge status={status} />
          <CostFigures llmCalls={view.totals.llmCalls} input={view.totals.input} output={view.totals.output} costUsd={view.totals.costUsd} pricedCostUsd={view.totals.pricedCostUsd} unpricedCalls={view.totals.unpricedCalls} />
          <Link to={`/runs/${encodeURIComponent(runId)}`} className="inline-flex items-center gap-1 text-sm text-orange-800 underline dark:text-orange-300">
            {t('chat.openRun')}
            <ForwardIcon />
          </Link>
          {view.end?.status === 'completed' ? (
            <Link to={`/runs/${encodeURIComponent(runId)}?save=1`} className="text-sm text-orange-800 underline dark:text-orange-300" data-testid="save-skill-link">
              {t('chat.saveSkill')}
            </Link>
          ) : null}
        </footer>
      </div>
    </li>
  );
}

/** A conversation's turns and the composer; without a conversation yet, the first message starts one named after it. */
function Conversation({ conversationId, started, onStarted }: { conversationId: string | undefined; started: readonly { runId: string; text: string }[]; onStarted: (conversationId: string, runId: string, text: string) => void }) {
  const { t } = usePreferences();
  const queries = useQueryClient();
  const detail = useQuery({ queryKey: ['conversation', conversationId], queryFn: () => api.conversation(conversationId!), enabled: conversationId !== undefined });
  const runIds = useMemo(() => {
    const ids: string[] = [];
    for (const message of detail.data?.messages ?? []) if (message.run_id !== null && !ids.includes(message.run_id)) ids.push(message.run_id);
    for (const run of started) if (!ids.includes(run.runId)) ids.push(run.runId);
    return ids;
  }, [detail.data, started]);
  const agents = useQuery({ queryKey: ['agents'], queryFn: api.agents });
  const [agent, setAgent] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = async () => {
    const content = text.trim();
    if (content === '' || busy) return;
    setBusy(true);
    setError(null);
    try {
      const id = conversationId ?? (await api.createConversation(content.slice(0, 80))).conversation_id;
      const run = await api.sendMessage(id, { content, ...(agent === '' ? {} : { agent }) });
      onStarted(id, run.run_id, content);
      setText('');
      void queries.invalidateQueries({ queryKey: ['conversations'] });
      if (conversationId === undefined) navigate(`/chat/${encodeURIComponent(id)}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-4">
      {detail.isLoading ? <Loading /> : null}
      <ErrorNote error={detail.error} />
      {runIds.length === 0 && !detail.isLoading ? <Empty>{t('chat.empty')}</Empty> : null}
      <ol className="flex flex-col gap-6" aria-label={t('chat.title')}>
        {runIds.map((runId) => (
          <Turn key={runId} runId={runId} pendingText={started.find((run) => run.runId === runId)?.text} />
        ))}
      </ol>
      <form onSubmit={onSubmit} className="card sticky bottom-2 flex flex-col gap-2 sm:flex-row sm:items-end">
        <label htmlFor="chat-message" className="sr-only">
          {t('chat.message')}
        </label>
        <textarea id="chat-message" className="input min-h-16 flex-1 resize-y" placeholder={t('chat.placeholder')} value={text} onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} rows={2} />
        <div className="flex gap-2 sm:flex-col">
          {(agents.data?.agents.length ?? 0) === 0 ? null : (
            <>
              <label htmlFor="chat-agent" className="sr-only">
                {t('chat.agentChoice')}
              </label>
              <select id="chat-agent" className="input w-auto" value={agent} onChange={(event) => setAgent(event.target.value)}>
                <option value="">{t('chat.defaultAgent')}</option>
                {(agents.data?.agents ?? []).map((each) => (
                  <option key={each.slug} value={each.slug}>
                    {each.name}
                  </option>
                ))}
              </select>
            </>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy || text.trim() === ''}>
            {t('chat.send')}
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
    </div>
  );
}

export function ChatPage({ params }: { params: Record<string, string> }) {
  const { t } = usePreferences();
  const conversations = useQuery({ queryKey: ['conversations'], queryFn: api.conversations });
  const conversationId = params['conversation'];
  const [started, setStarted] = useState<{ conversationId: string; runId: string; text: string }[]>([]);
  return (
    <div className="flex flex-col gap-4 md:flex-row">
      <aside className="md:w-60 md:shrink-0" aria-labelledby="conversations-title">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h1 id="conversations-title" className="text-lg font-semibold">
            {t('chat.conversations')}
          </h1>
        </div>
        <Link to="/chat" className="btn btn-primary mb-3 w-full">
          {t('chat.new')}
        </Link>
        <ErrorNote error={conversations.error} />
        <ul className="flex max-h-48 flex-col gap-1 overflow-y-auto md:max-h-none">
          {(conversations.data?.conversations ?? []).map((conversation) => (
            <li key={conversation.conversation_id}>
              <Link
                to={`/chat/${encodeURIComponent(conversation.conversation_id)}`}
                aria-current={conversation.conversation_id === conversationId ? 'page' : undefined}
                dir="auto"
                className={`block truncate rounded-md px-2 py-1.5 text-sm ${conversation.conversation_id === conversationId ? 'bg-stone-200 font-semibold dark:bg-stone-800' : 'hover:bg-stone-100 dark:hover:bg-stone-800'}`}
              >
                {conversation.title ?? t('chat.untitled')}
              </Link>
            </li>
          ))}
        </ul>
      </aside>
      <Conversation
        key={conversationId ?? 'new'}
        conversationId={conversationId}
        started={started.filter((run) => run.conversationId === conversationId)}
        onStarted={(id, runId, text) => setStarted((runs) => [...runs, { conversationId: id, runId, text }])}
      />
    </div>
  );
}
