import type { RunStreamState } from '../api/run-stream.js';
import type { RunView } from '../api/run-view.js';
import { usePreferences } from '../i18n/preferences.js';
import { ToolCallCard } from './tool-call-card.js';

/** A run as a conversation turn: the model's words and its tool calls in order, then the text streaming now. */
export function RunTranscript({ runId, view, stream }: { runId: string; view: RunView; stream: RunStreamState }) {
  const { t } = usePreferences();
  const liveTexts = Object.entries(stream.live).filter(([, text]) => text !== '');
  return (
    <div className="flex flex-col gap-3">
      {view.items.map((item) =>
        item.kind === 'text' ? (
          <p key={`text-${item.seq}`} className="whitespace-pre-wrap leading-relaxed" dir="auto" data-testid="assistant-text" data-seq={item.seq}>
            {item.text}
          </p>
        ) : (
          <ToolCallCard key={item.callId} runId={runId} call={view.calls.get(item.callId)!} answerable={view.paused} />
        ),
      )}
      {liveTexts.map(([iteration, text]) => (
        <p key={`live-${iteration}`} className="whitespace-pre-wrap leading-relaxed" dir="auto" data-testid="live-text" aria-live="polite">
          {text}
          <span className="ms-0.5 inline-block h-4 w-2 animate-pulse bg-stone-500 align-middle" aria-hidden="true" />
        </p>
      ))}
      {stream.phase === 'reconnecting' ? (
        <p className="muted text-sm" role="status">
          {t('chat.reconnecting')}
        </p>
      ) : null}
      {view.end === undefined && !view.paused && stream.phase !== 'ended' && liveTexts.length === 0 ? (
        <p className="muted text-sm" role="status">
          {t('chat.thinking')}
        </p>
      ) : null}
      {view.end?.error === null || view.end?.error === undefined ? null : (
        <p className="text-sm text-red-800 dark:text-red-300" role="alert">
          {view.end.error.message}
        </p>
      )}
    </div>
  );
}
